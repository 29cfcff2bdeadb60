import { getFaceDetector } from '../../media/face-detector.ts';
import { inspectSticker, type StickerVerdict } from '../../media/sticker-qa.ts';
import type { StickerReview } from '../../providers/provider.ts';
import { verdictsInOrder } from './pack-review.ts';
import { needsRedraw, type PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { briefFor, callProvider } from './provider-call.ts';

/**
 * qa_sheet: right after a sheet is cut, the local gate (one face, not blank, head not cut) and one
 * provider review of its figures against the anchor (likeness, one person, not cropped) — so a bad
 * sheet is caught while redrawing it is still the cheap fix, before the pack review at the end.
 */
export interface SheetReview {
	/** Pack numbers of the figures to redraw. */
	rejected: number[];
	local: Map<number, StickerVerdict>;
	verdicts: (StickerReview & { local: string[] })[];
}

export async function reviewCutSheet(
	ctx: PipelineContext,
	state: PackState,
	input: { anchor: Buffer; sheet: number; numbers: number[]; stickers: Buffer[] }
): Promise<SheetReview> {
	const { numbers, stickers } = input;
	await ctx.enterStage('qa', `sheet ${input.sheet}`);
	const detector = await getFaceDetector();
	const local: StickerVerdict[] = [];
	for (const png of stickers) local.push(await inspectSticker(png, detector));
	const answer = await callProvider(ctx, 'qa_sheet', 'qa', (tone) =>
		ctx.provider.reviewSheet({
			brief: briefFor(ctx, tone),
			anchor: input.anchor,
			stickers,
			local,
			sheet: input.sheet,
			numbers
		})
	);
	const reviews = verdictsInOrder(answer, numbers);
	const rejected = numbers.filter((n, i) => needsRedraw(state, local[i]!, reviews[i]!));
	return {
		rejected,
		local: new Map(numbers.map((n, i) => [n, local[i]!])),
		verdicts: reviews.map((r, i) => ({ ...r, local: local[i]!.reasons }))
	};
}
