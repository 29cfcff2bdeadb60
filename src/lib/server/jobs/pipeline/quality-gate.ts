import { getFaceDetector } from '../../media/face-detector.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { inspectSticker, type StickerVerdict } from '../../media/sticker-qa.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard, StickerReview } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { writeFileAtomic } from './job-files.ts';
import { reviewPack, writeLikeness } from './pack-review.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { callProvider } from './provider-call.ts';
import { readSticker } from './sheet-stage.ts';

/**
 * qa → regen. Two checks on every sticker: the local gate (exactly one face with the offline face
 * model, not blank, head not cut by the edge) and the provider's pack review (qa_pack: likeness to
 * the anchor, one person, not cropped). A sticker failing either is drawn again once within the
 * same attempt — api stage `regen` for a local failure, `qa_regen` for a review rejection. The
 * redrawn sticker passes the local gate only: a second review would double the check's cost for
 * one sticker. A sticker still failing makes the attempt fail. Verdicts go to
 * job<N>_consistency.json (local) and job<N>_likeness.json (review).
 */
type GateVerdict = StickerVerdict & { n: number; regenerated: boolean };

export async function passQualityGate(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer): Promise<void> {
	await ctx.enterStage('qa');
	const detector = await getFaceDetector();
	const numbers = STICKER_VARIANTS.map((_, i) => i + 1);
	const stickers = await Promise.all(numbers.map((n) => readSticker(ctx, n)));
	const local: StickerVerdict[] = [];
	for (const png of stickers) local.push(await inspectSticker(png, detector));
	const reviews = await reviewPack(ctx, anchor, stickers, local);
	const verdicts: GateVerdict[] = [];
	for (const n of numbers) verdicts.push(await settleSticker(ctx, appearance, anchor, n, local[n - 1]!, reviews[n - 1]!));
	const regenerated = new Set(verdicts.filter((v) => v.regenerated).map((v) => v.n));
	await writeLikeness(ctx, reviews, regenerated);
	await writeFileAtomic(ctx.files.debug('consistency.json'), JSON.stringify({ jobId: ctx.jobId, at: ctx.clock.now().toISOString(), stickers: verdicts }, null, 2));
	const bad = verdicts.filter((v) => !v.ok);
	if (bad.length > 0) throw new ProviderError('bad_output', `quality gate: ${bad.map((v) => `sticker ${v.n} (${v.reasons.join(', ')})`).join('; ')}`);
}

/** Keeps a sticker both checks accept; draws any other one again, once. */
async function settleSticker(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer, n: number, local: StickerVerdict, review: StickerReview): Promise<GateVerdict> {
	if (local.ok && review.ok) return { n, ...local, regenerated: false };
	const stage = local.ok ? 'qa_regen' : 'regen';
	const why = local.ok ? ['review: ' + (review.notes.join('; ') || 'rejected')] : local.reasons;
	await ctx.enterStage('regen', `sticker ${n}: ${why.join(', ')}`);
	return { n, ...(await regenerateSticker(ctx, appearance, anchor, n, stage)), regenerated: true };
}

async function regenerateSticker(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer, n: number, stage: string): Promise<StickerVerdict> {
	const variant = STICKER_VARIANTS[n - 1]!;
	const image = await callProvider(ctx, stage, 'image', () => ctx.provider.drawFigure({ brief: ctx.brief, appearance, anchor, variant, index: n - 1, attempt: 2 }));
	await writeFileAtomic(ctx.files.debug(`regen${n}.png`), image);
	const { stickers, diagnosis } = await cutSheet(image, { expected: 1 });
	const png = stickers[0];
	if (!diagnosis.ok || !png) return { ok: false, faces: 0, coverage: 0, reasons: [`regen cut: ${diagnosis.reason ?? 'nothing cut'}`], meanColour: { r: 0, g: 0, b: 0 } };
	const verdict = await inspectSticker(png, await getFaceDetector());
	if (verdict.ok) await writeFileAtomic(ctx.files.sticker(n), png);
	return verdict;
}
