import { getFaceDetector } from '../../media/face-detector.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { inspectSticker } from '../../media/sticker-qa.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { tooSmall } from './drawn-size.ts';
import type { PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { briefFor, callProvider } from './provider-call.ts';
import { reviewCutSheet, type SheetReview } from './sheet-review.ts';

/**
 * The fallback for a sheet the provider keeps drawing too small: each of its figures drawn on its
 * own (api stage `sheet_figure`, one image call each, twice at most), cut, then reviewed together
 * like a sheet (qa_sheet), so rejected figures go through the same `regen` as a sheet's. Costs six
 * image calls instead of one, which is why it is the last resort and not the plan.
 */
const FIGURE_TRIES = 2;

type FiguresInput = { appearance: AppearanceCard; anchor: Buffer; sheet: number; numbers: number[] };

export async function drawFiguresAlone(
	ctx: PipelineContext,
	state: PackState,
	input: FiguresInput
): Promise<SheetReview> {
	const { sheet, numbers } = input;
	ctx.logger.warn({ jobId: ctx.jobId, sheet }, 'sheet drawn too small twice; drawing its figures one by one');
	const stickers: Buffer[] = [];
	for (const [i, n] of numbers.entries()) {
		await ctx.enterStage('sheet', `sheet ${sheet}: figure ${i + 1} of ${numbers.length}, drawn alone`);
		const png = await drawUsableFigure(ctx, input, n);
		await ctx.fileStore.put(ctx.files.keys.sticker(n), png);
		stickers.push(png);
	}
	const review = await reviewCutSheet(ctx, state, { anchor: input.anchor, sheet, numbers, stickers });
	for (const [n, verdict] of review.local) state.verdicts.set(n, verdict);
	await ctx.fileStore.put(
		ctx.files.keys.debug(`sheet${sheet}_figures.json`),
		JSON.stringify(
			{ jobId: ctx.jobId, sheetNumber: sheet, figuresDrawnAlone: numbers, review: review.verdicts },
			null,
			2
		)
	);
	return review;
}

/**
 * The figures a short sheet left out (its empty cells), each drawn alone (`sheet_figure`) and
 * kept; their local verdicts go with them. Returns the numbers the local gate failed, for the
 * sheet's `regen` like its rejected figures; the pack review sees them all.
 */
export async function drawEmptyCells(ctx: PipelineContext, state: PackState, input: FiguresInput): Promise<number[]> {
	const failed: number[] = [];
	for (const n of input.numbers) {
		await ctx.enterStage('sheet', `sheet ${input.sheet}: figure ${n} was missing, drawn alone`);
		const png = await drawUsableFigure(ctx, input, n);
		await ctx.fileStore.put(ctx.files.keys.sticker(n), png);
		const verdict = await inspectSticker(png, await getFaceDetector());
		state.verdicts.set(n, verdict);
		if (!verdict.ok) failed.push(n);
	}
	return failed;
}

async function drawUsableFigure(ctx: PipelineContext, input: FiguresInput, n: number): Promise<Buffer> {
	const variant = STICKER_VARIANTS[n - 1]!;
	for (let attempt = 1; attempt <= FIGURE_TRIES; attempt++) {
		const image = await callProvider(ctx, 'sheet_figure', 'image', (tone) =>
			ctx.provider.drawFigure({
				brief: briefFor(ctx, tone),
				appearance: input.appearance,
				anchor: input.anchor,
				variant,
				index: n - 1,
				attempt
			})
		);
		await ctx.fileStore.put(ctx.files.keys.debug(`sheet${input.sheet}_figure${n}_try${attempt}.png`), image);
		const small = await tooSmall(image);
		const cut = small ? null : await cutSheet(image, { expected: 1, key: ctx.brief.sheetKey.rgb });
		const sticker = cut?.diagnosis.ok ? cut.stickers[0] : undefined;
		if (sticker) return sticker;
		ctx.logger.warn(
			{ jobId: ctx.jobId, n, attempt, reason: small ?? cut?.diagnosis.reason },
			'single figure unusable; drawing it again'
		);
	}
	throw new ProviderError('bad_output', `sticker ${n}: no usable single figure after ${FIGURE_TRIES} tries`);
}
