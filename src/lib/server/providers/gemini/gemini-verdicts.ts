import type { StickerReview } from '../provider.ts';

/**
 * A qa_sheet / qa_pack answer as verdicts, one per sticker in the order of `numbers`. A model may skip a sticker or
 * give a field in the wrong type; a sticker it said nothing usable about is kept (ok) with a note,
 * because rejecting it would pay for a redraw on no evidence.
 */
export function readPackVerdicts(raw: unknown[], count: number, numbers: number[] = Array.from({ length: count }, (_, i) => i + 1)): StickerReview[] {
	const byNumber = new Map<number, Record<string, unknown>>();
	for (const entry of raw) {
		if (entry && typeof entry === 'object' && typeof (entry as { n?: unknown }).n === 'number') byNumber.set((entry as { n: number }).n, entry as Record<string, unknown>);
	}
	return numbers.map((n) => toReview(n, byNumber.get(n)));
}

function toReview(n: number, entry: Record<string, unknown> | undefined): StickerReview {
	if (!entry || typeof entry.ok !== 'boolean') return { n, ok: true, likeness: 0, onePerson: true, cropped: false, notes: ['no verdict from the model'] };
	const notes = Array.isArray(entry.notes) ? entry.notes.filter((t): t is string => typeof t === 'string') : [];
	return {
		n,
		ok: entry.ok,
		likeness: typeof entry.likeness === 'number' ? Math.max(0, Math.min(1, entry.likeness)) : 0,
		onePerson: entry.onePerson !== false,
		cropped: entry.cropped === true,
		notes
	};
}
