import { getFaceDetector } from '../../media/face-detector.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { inspectSticker, type StickerVerdict } from '../../media/sticker-qa.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { writeFileAtomic } from './job-files.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { callProvider } from './provider-call.ts';
import { readSticker } from './sheet-stage.ts';

/**
 * qa → regen: every sticker must show exactly one person, not be blank and not cut through the
 * head. A failing sticker is drawn again once (stage regen) within the same attempt; a sticker that
 * still fails makes the attempt fail. The per-sticker verdicts go to job<N>_consistency.json.
 */
export async function passQualityGate(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer): Promise<void> {
	await ctx.enterStage('qa');
	const detector = await getFaceDetector();
	const verdicts: (StickerVerdict & { n: number; regenerated?: boolean })[] = [];
	for (let n = 1; n <= STICKER_VARIANTS.length; n++) {
		let verdict = await inspectSticker(await readSticker(ctx, n), detector);
		let regenerated = false;
		if (!verdict.ok) {
			await ctx.enterStage('regen', `sticker ${n}: ${verdict.reasons.join(', ')}`);
			verdict = await regenerateSticker(ctx, appearance, anchor, n);
			regenerated = true;
		}
		verdicts.push({ n, ...verdict, regenerated });
	}
	await writeFileAtomic(ctx.files.debug('consistency.json'), JSON.stringify({ jobId: ctx.jobId, at: ctx.clock.now().toISOString(), stickers: verdicts }, null, 2));
	const bad = verdicts.filter((v) => !v.ok);
	if (bad.length > 0) throw new ProviderError('bad_output', `quality gate: ${bad.map((v) => `sticker ${v.n} (${v.reasons.join(', ')})`).join('; ')}`);
}

async function regenerateSticker(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer, n: number): Promise<StickerVerdict> {
	const variant = STICKER_VARIANTS[n - 1]!;
	const image = await callProvider(ctx, 'regen', 'image', () => ctx.provider.drawFigure({ brief: ctx.brief, appearance, anchor, variant, index: n - 1, attempt: 2 }));
	await writeFileAtomic(ctx.files.debug(`regen${n}.png`), image);
	const { stickers, diagnosis } = await cutSheet(image, { expected: 1 });
	const png = stickers[0];
	if (!diagnosis.ok || !png) return { ok: false, faces: 0, coverage: 0, reasons: [`regen cut: ${diagnosis.reason ?? 'nothing cut'}`], meanColour: { r: 0, g: 0, b: 0 } };
	const verdict = await inspectSticker(png, await getFaceDetector());
	if (verdict.ok) await writeFileAtomic(ctx.files.sticker(n), png);
	return verdict;
}
