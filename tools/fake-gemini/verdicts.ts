/**
 * What the fake answers to a pack review (qa_pack): a JSON verdict per numbered sticker shaped like
 * a real vision model's answer — likeness a little different for each sticker, and the stickers a
 * `qa_reject` fault names rejected with the reasons a model gives.
 */
export function packVerdict(prompt: string, rejected: number[]): string {
	const count = Number(/contact sheet of (\d+) numbered stickers/.exec(prompt)?.[1] ?? 12);
	const stickers = Array.from({ length: count }, (_, i) => {
		const n = i + 1;
		if (rejected.includes(n)) return { n, ok: false, likeness: 0.31, onePerson: true, cropped: false, notes: ['face does not match the anchor: different jaw and hairline'] };
		return { n, ok: true, likeness: round2(0.78 + ((n * 37) % 17) / 100), onePerson: true, cropped: false, notes: ['same person as the anchor'] };
	});
	return JSON.stringify({ stickers });
}

function round2(v: number): number {
	return Math.round(v * 100) / 100;
}
