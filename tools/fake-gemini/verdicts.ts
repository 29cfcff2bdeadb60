/**
 * What the fake answers to a sheet or pack review (qa_sheet, qa_pack): a JSON verdict per numbered
 * sticker shaped like a real vision model's answer — likeness a little different for each sticker,
 * and the stickers a `qa_reject` / `sheet_reject` fault names rejected with the reasons a model gives.
 */
export function packVerdict(prompt: string, rejected: number[]): string {
	const stickers = reviewedNumbers(prompt).map((n) => {
		if (rejected.includes(n))
			return {
				n,
				ok: false,
				likeness: 0.31,
				onePerson: true,
				cropped: false,
				notes: ['face does not match the anchor: different jaw and hairline']
			};
		return {
			n,
			ok: true,
			likeness: round2(0.78 + ((n * 37) % 17) / 100),
			onePerson: true,
			cropped: false,
			notes: ['same person as the anchor']
		};
	});
	return JSON.stringify({ stickers });
}

/** Whether a review's contact sheet shows any of these pack numbers (a sheet_reject names stickers of one sheet). */
export function packVerdictNames(prompt: string, numbers: number[]): boolean {
	const shown = reviewedNumbers(prompt);
	return numbers.some((n) => shown.includes(n));
}

/** The pack numbers on the contact sheet, read from the prompt: "contact sheet of 6 numbered stickers (7–12, …". */
function reviewedNumbers(prompt: string): number[] {
	const match = /contact sheet of (\d+) numbered stickers \((\d+)–/.exec(prompt);
	const count = Number(match?.[1] ?? 12);
	const first = Number(match?.[2] ?? 1);
	return Array.from({ length: count }, (_, i) => first + i);
}

function round2(v: number): number {
	return Math.round(v * 100) / 100;
}
