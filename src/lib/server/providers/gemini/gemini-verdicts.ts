import type { StickerReview } from '../provider.ts';
import { StickerVerdictAnswer } from './gemini-schemas.ts';

/**
 * A qa_sheet / qa_pack answer as verdicts, one per sticker in the order of `numbers`. A model may skip a sticker or
 * give a field in the wrong type; a sticker it said nothing usable about is kept (ok) with a note,
 * because rejecting it would pay for a redraw on no evidence.
 */
export function readPackVerdicts(
	raw: unknown[],
	count: number,
	numbers: number[] = Array.from({ length: count }, (_, i) => i + 1)
): StickerReview[] {
	const byNumber = new Map<number, StickerReview>();
	for (const entry of raw) {
		const verdict = StickerVerdictAnswer.safeParse(entry);
		if (verdict.success) byNumber.set(verdict.data.n, { ...verdict.data, likeness: clamp01(verdict.data.likeness) });
	}
	return numbers.map(
		(n) =>
			byNumber.get(n) ?? {
				n,
				ok: true,
				likeness: 0,
				onePerson: true,
				cropped: false,
				notes: ['no verdict from the model']
			}
	);
}

function clamp01(v: number): number {
	return Math.max(0, Math.min(1, v));
}
