import { getFaceDetector } from '../../media/face-detector.ts';
import type { PreparedHead } from '../../media/head-paste.ts';
import { inspectSticker, type StickerVerdict } from '../../media/sticker-qa.ts';
import type { StickerReview } from '../../providers/provider.ts';

/**
 * How a job's stickers are made (jobs.render_mode): `figure` — whole generated figures;
 * `composite` — generated bodies with the guest's head pasted on (RENDER_MODE=composite);
 * `composite_fallback` — figure mode, but a figure whose face failed review twice got the head.
 */
export const RENDER_MODES = ['figure', 'composite', 'composite_fallback'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

export function pickRenderMode(value: string | null | undefined, fallback: RenderMode): RenderMode {
	return (RENDER_MODES as readonly string[]).includes(value ?? '') ? (value as RenderMode) : fallback;
}

/**
 * What one run of the drawing half knows about the pack. Kept in memory only: after a crash the
 * local checks simply run again, and a sticker may be redrawn once more than the rule says.
 */
export interface PackState {
	renderMode: RenderMode;
	/** Local gate verdicts of the sticker files as they are on disk now; dropped when a file changes. */
	verdicts: Map<number, StickerVerdict>;
	/** Stickers drawn again in this run: each is redrawn at most once. */
	redrawn: Set<number>;
	/** The guest's head, drawn and prepared once per run when a composite needs it. */
	head?: PreparedHead;
}

export function createPackState(renderMode: RenderMode): PackState {
	return { renderMode, verdicts: new Map(), redrawn: new Set() };
}

/** The local gate's verdict on sticker n, computed once per version of its file. */
export async function localVerdict(state: PackState, n: number, png: Buffer): Promise<StickerVerdict> {
	const known = state.verdicts.get(n);
	if (known) return known;
	const verdict = await inspectSticker(png, await getFaceDetector());
	state.verdicts.set(n, verdict);
	return verdict;
}

/**
 * Whether a sticker must be redrawn. In composite mode the figure's own face is replaced anyway, so
 * a review that only doubts its likeness is no reason to pay for another figure.
 */
export function needsRedraw(state: PackState, local: StickerVerdict, review: StickerReview): boolean {
	if (!local.ok) return true;
	if (review.ok) return false;
	const faceOnly = review.onePerson && !review.cropped;
	return !(state.renderMode === 'composite' && faceOnly);
}
