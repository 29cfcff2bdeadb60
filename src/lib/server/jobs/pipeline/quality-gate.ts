import type { StickerVerdict } from '../../media/sticker-qa.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard, StickerReview } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { recordRenderMode } from '../job.repository.ts';
import { withGuestHead } from './heads-stage.ts';
import { reviewPack, writeLikeness } from './pack-review.ts';
import { localVerdict, needsRedraw, type PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { readSticker } from './sheet-stage.ts';
import { keepIfItPasses, redrawSticker } from './sticker-redraw.ts';

/**
 * qa_pack → qa_regen / heads, the last check before delivery. Every sticker passes the local gate
 * (exactly one face with the offline face model, not blank, head not cut by the edge) and the
 * provider's pack review (likeness to the anchor, one person, not cropped, consistent with the
 * pack). A failing sticker not redrawn yet is drawn again once within the same attempt — `regen`
 * for a local failure, `qa_regen` for a review rejection; the redraw passes the local gate only (a
 * second review would double the check's cost for one sticker). A figure already redrawn whose
 * face the review still rejects gets the guest's head (`heads`, the job becomes
 * composite_fallback). Anything still failing makes the attempt fail. Verdicts go to
 * job<N>_consistency.json (local) and job<N>_likeness.json (review).
 */
type GateVerdict = StickerVerdict & { n: number; regenerated: boolean; head?: boolean };
type GateInput = { appearance: AppearanceCard; anchor: Buffer };

export async function passQualityGate(ctx: PipelineContext, state: PackState, input: GateInput): Promise<void> {
	await ctx.enterStage('qa');
	const numbers = STICKER_VARIANTS.map((_, i) => i + 1);
	const stickers = await Promise.all(numbers.map((n) => readSticker(ctx, n)));
	const local: StickerVerdict[] = [];
	for (const [i, png] of stickers.entries()) local.push(await localVerdict(state, i + 1, png));
	const reviews = await reviewPack(ctx, input.anchor, stickers, local);
	const verdicts: GateVerdict[] = [];
	for (const n of numbers)
		verdicts.push(
			await settleSticker(ctx, state, {
				...input,
				n,
				png: stickers[n - 1]!,
				local: local[n - 1]!,
				review: reviews[n - 1]!
			})
		);
	await writeLikeness(ctx, reviews, new Set(verdicts.filter((v) => v.regenerated).map((v) => v.n)));
	await ctx.fileStore.put(
		ctx.files.keys.debug('consistency.json'),
		JSON.stringify(
			{ jobId: ctx.jobId, at: ctx.clock.now().toISOString(), renderMode: state.renderMode, stickers: verdicts },
			null,
			2
		)
	);
	const bad = verdicts.filter((v) => !v.ok);
	if (bad.length > 0)
		throw new ProviderError(
			'bad_output',
			`quality gate: ${bad.map((v) => `sticker ${v.n} (${v.reasons.join(', ')})`).join('; ')}`
		);
}

type StickerInput = GateInput & { n: number; png: Buffer; local: StickerVerdict; review: StickerReview };

/** Keeps a sticker both checks accept; redraws it once; then, for a face the review rejects, the head. */
async function settleSticker(ctx: PipelineContext, state: PackState, input: StickerInput): Promise<GateVerdict> {
	const { n, local, review } = input;
	if (!needsRedraw(state, local, review)) return { n, ...local, regenerated: false };
	const why = local.ok ? ['review: ' + (review.notes.join('; ') || 'rejected')] : local.reasons;
	const faceOnly = local.ok && review.onePerson && !review.cropped;
	if (state.redrawn.has(n) && faceOnly)
		return { n, ...(await fallBackToHead(ctx, state, input)), regenerated: true, head: true };
	if (state.redrawn.has(n)) return { n, ...local, regenerated: true };
	await ctx.enterStage('regen', `sticker ${n}: ${why.join(', ')}`);
	return {
		n,
		...(await redrawSticker(ctx, state, { ...input, stage: local.ok ? 'qa_regen' : 'regen' })),
		regenerated: true
	};
}

/** composite_fallback: the figure stays, the guest's head replaces the face the review rejected twice. */
async function fallBackToHead(ctx: PipelineContext, state: PackState, input: StickerInput): Promise<StickerVerdict> {
	if (state.renderMode === 'figure') {
		state.renderMode = 'composite_fallback';
		await recordRenderMode(ctx.db, ctx.clock, ctx.jobId, state.renderMode);
		ctx.logger.warn(
			{ jobId: ctx.jobId, n: input.n },
			'a figure failed review after its redraw; pasting the guest’s head (composite_fallback)'
		);
	}
	return keepIfItPasses(ctx, state, input.n, await withGuestHead(ctx, state, input));
}
