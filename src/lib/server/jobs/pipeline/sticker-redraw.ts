import { getFaceDetector } from '../../media/face-detector.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { inspectSticker, type StickerVerdict } from '../../media/sticker-qa.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { tooSmall } from './drawn-size.ts';
import { withGuestHead } from './heads-stage.ts';
import type { PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { briefFor, callProvider } from './provider-call.ts';

/**
 * Draws sticker n again as a single figure (api stage `regen` after a local or sheet-review
 * failure, `qa_regen` after a pack-review rejection), within the same attempt. The new figure
 * replaces the old file only when it passes the local gate; in composite mode it gets the guest's
 * head like the others. Each sticker is redrawn at most once per run. `attempt` varies the drawing
 * (an operator's redraw of a delivered sticker passes its own). A figure drawn under 512 px is not
 * cut (it would be upscaled into the sticker): the old sticker stays.
 */
export async function redrawSticker(
	ctx: PipelineContext,
	state: PackState,
	input: { appearance: AppearanceCard; anchor: Buffer; n: number; stage: 'regen' | 'qa_regen'; attempt?: number }
): Promise<StickerVerdict> {
	const { appearance, anchor, n, stage } = input;
	state.redrawn.add(n);
	const variant = STICKER_VARIANTS[n - 1]!;
	const image = await callProvider(ctx, stage, 'image', (tone) =>
		ctx.provider.drawFigure({
			brief: briefFor(ctx, tone),
			appearance,
			anchor,
			variant,
			index: n - 1,
			attempt: input.attempt ?? 2
		})
	);
	await ctx.fileStore.put(ctx.files.keys.debug(`regen${n}.png`), image);
	const small = await tooSmall(image);
	if (small)
		return {
			ok: false,
			faces: 0,
			coverage: 0,
			largestHole: 0,
			reasons: [`regen: ${small}`],
			meanColour: { r: 0, g: 0, b: 0 }
		};
	const { stickers, diagnosis } = await cutSheet(image, { expected: 1, key: ctx.brief.sheetKey.rgb });
	const cut = stickers[0];
	if (!diagnosis.ok || !cut)
		return {
			ok: false,
			faces: 0,
			coverage: 0,
			largestHole: 0,
			reasons: [`regen cut: ${diagnosis.reason ?? 'nothing cut'}`],
			meanColour: { r: 0, g: 0, b: 0 }
		};
	const png =
		state.renderMode === 'composite' ? await withGuestHead(ctx, state, { appearance, anchor, n, png: cut }) : cut;
	return keepIfItPasses(ctx, state, n, png);
}

/**
 * A new version of sticker n replaces the file only when the local gate passes it; the verdict is
 * cached with it, so the cache always describes the file on disk.
 */
export async function keepIfItPasses(
	ctx: PipelineContext,
	state: PackState,
	n: number,
	png: Buffer
): Promise<StickerVerdict> {
	const verdict = await inspectSticker(png, await getFaceDetector());
	if (!verdict.ok) return verdict;
	await ctx.fileStore.put(ctx.files.keys.sticker(n), png);
	// A clip made from the old figure no longer matches it (a resumed job animates it again).
	await ctx.fileStore.delete(ctx.files.keys.video(n));
	state.verdicts.set(n, verdict);
	return verdict;
}
