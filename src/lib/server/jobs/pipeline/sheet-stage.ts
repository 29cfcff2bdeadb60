import { ensureLayoutGuide, layoutAspectRatio } from '../../media/layout-guide.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { measureSheet, MIN_DRAWN_PX, type SheetSize } from './drawn-size.ts';
import { allStored, readStored } from './job-files.ts';
import type { PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { briefFor, callProvider } from './provider-call.ts';
import { drawEmptyCells, drawFiguresAlone } from './sheet-figures.ts';
import { reviewCutSheet, type SheetReview } from './sheet-review.ts';
import { redrawSticker } from './sticker-redraw.ts';

/**
 * sheet → cut → qa_sheet: two 3×2 sheets make the 12 stickers. Every attempt is kept under
 * debug_sheets/ (job<N>_sheet<K>_try<M>.png + .json with the cut diagnosis and the review). A sheet
 * is drawn again, up to SHEET_TRIES times, when the cutter finds the wrong number of figures or
 * when the review rejects more than half of them (one new sheet costs less than four single
 * figures); otherwise its few rejected figures are redrawn one by one (`regen`).
 *
 * A sheet one or two figures short (the cutter places the figures it found in their grid cells)
 * is not thrown away: the figures it has are reviewed and kept like a whole sheet's, and only the
 * empty cells' figures are drawn, each alone (`sheet_figure`, one 1K call) — a third sheet call
 * for one missing figure cost 2.4× as much and often came back short again.
 *
 * A sheet whose grid cells came back under 512 px is never cut (its stickers would be upscaled):
 * it is drawn once more, and if that one is small too, the sheet's figures are drawn one by one
 * instead (`sheet_figure`), each at a size that fits a sticker.
 */
export const SHEET_FORMAT = { cols: 3, rows: 2, width: 1536, height: 1024 } as const;
const PER_SHEET = SHEET_FORMAT.cols * SHEET_FORMAT.rows;
export const SHEET_COUNT = Math.ceil(STICKER_VARIANTS.length / PER_SHEET);
const SHEET_TRIES = 3;
const SMALL_SHEETS_BEFORE_FIGURES = 2;
/** At most this many empty cells are filled one by one; a sheet shorter than that is drawn again. */
const MAX_EMPTY_CELLS = 2;

type DrawInput = { appearance: AppearanceCard; anchor: Buffer };
type SheetInput = DrawInput & { guide: Buffer; sheet: number; numbers: number[] };

export async function ensureSheets(ctx: PipelineContext, state: PackState, input: DrawInput): Promise<void> {
	const guide = await ensureLayoutGuide(ctx.dataDir, SHEET_FORMAT, ctx.brief.sheetKey);
	for (let sheet = 1; sheet <= SHEET_COUNT; sheet++) {
		const first = (sheet - 1) * PER_SHEET;
		const numbers = STICKER_VARIANTS.slice(first, first + PER_SHEET).map((_, i) => first + i + 1);
		if (
			await allStored(
				ctx.fileStore,
				numbers.map((n) => ctx.files.keys.sticker(n))
			)
		)
			continue;
		const review = await drawAcceptedSheet(ctx, state, { ...input, guide, sheet, numbers });
		for (const n of review.rejected) await redrawSticker(ctx, state, { ...input, n, stage: 'regen' });
	}
}

async function drawAcceptedSheet(ctx: PipelineContext, state: PackState, input: SheetInput): Promise<SheetReview> {
	const { sheet, numbers } = input;
	const first = numbers[0]! - 1;
	const variants = STICKER_VARIANTS.slice(first, first + numbers.length);
	let smallSheets = 0;
	for (let attempt = 1; attempt <= SHEET_TRIES; attempt++) {
		await ctx.enterStage('sheet', `sheet ${sheet} of ${SHEET_COUNT}`);
		const image = await callProvider(ctx, 'sheet', 'image', (tone) =>
			ctx.provider.drawSheet({
				brief: briefFor(ctx, tone),
				appearance: input.appearance,
				anchor: input.anchor,
				layoutGuide: input.guide,
				variants,
				firstIndex: first,
				cols: SHEET_FORMAT.cols,
				rows: SHEET_FORMAT.rows,
				aspectRatio: layoutAspectRatio(SHEET_FORMAT),
				attempt
			})
		);
		const base = ctx.files.keys.debug(`sheet${sheet}_try${attempt}`);
		await ctx.fileStore.put(`${base}.png`, image);
		const size = await measureSheet(image, SHEET_FORMAT);
		if (!size.ok) {
			await recordSmallSheet(ctx, `${base}.json`, { sheet, attempt, size });
			if (++smallSheets >= SMALL_SHEETS_BEFORE_FIGURES) return drawFiguresAlone(ctx, state, input);
			continue;
		}
		await ctx.enterStage('cut', `sheet ${sheet} of ${SHEET_COUNT}`);
		const { stickers, diagnosis, byCell } = await cutSheet(image, {
			expected: variants.length,
			key: ctx.brief.sheetKey.rgb,
			grid: SHEET_FORMAT
		});
		const short = diagnosis.ok ? null : presentFigures(numbers, byCell);
		const cut = diagnosis.ok ? { numbers, stickers, empty: [] } : short;
		const review = cut
			? await reviewCutSheet(ctx, state, { anchor: input.anchor, sheet, numbers: cut.numbers, stickers: cut.stickers })
			: null;
		await ctx.fileStore.put(
			`${base}.json`,
			JSON.stringify(
				{
					jobId: ctx.jobId,
					sheetNumber: sheet,
					attempt,
					...diagnosis,
					...(cut?.empty.length ? { drawnAlone: cut.empty } : {}),
					...(review ? { review: review.verdicts } : {})
				},
				null,
				2
			)
		);
		if (cut && review && review.rejected.length <= cut.numbers.length / 2) {
			for (const [i, png] of cut.stickers.entries())
				await ctx.fileStore.put(ctx.files.keys.sticker(cut.numbers[i]!), png);
			for (const [n, verdict] of review.local) state.verdicts.set(n, verdict);
			if (cut.empty.length)
				review.rejected.push(...(await drawEmptyCells(ctx, state, { ...input, numbers: cut.empty })));
			return review;
		}
		const reason = review
			? `the review rejected ${review.rejected.length} of ${numbers.length} figures`
			: diagnosis.reason;
		ctx.logger.warn({ jobId: ctx.jobId, sheet, attempt, reason }, 'sheet rejected; drawing it again');
	}
	throw new ProviderError('bad_output', `sheet ${sheet}: no usable sheet after ${SHEET_TRIES} tries`);
}

/** A short sheet's figures by pack number, and the numbers of its empty cells; null when too many are missing. */
function presentFigures(
	numbers: number[],
	byCell: (Buffer | null)[] | undefined
): { numbers: number[]; stickers: Buffer[]; empty: number[] } | null {
	if (!byCell) return null;
	const empty = numbers.filter((_, i) => !byCell[i]);
	if (empty.length === 0 || empty.length > MAX_EMPTY_CELLS) return null;
	return {
		numbers: numbers.filter((_, i) => byCell[i]),
		stickers: byCell.filter((b): b is Buffer => b !== null),
		empty
	};
}

/** A sheet too small to cut: its diagnosis says so, with the size it came back at. */
async function recordSmallSheet(
	ctx: PipelineContext,
	key: string,
	input: { sheet: number; attempt: number; size: SheetSize }
): Promise<void> {
	const { sheet, attempt, size } = input;
	const reason = `cells of ${size.cell} px (sheet drawn at ${size.width}x${size.height}) are under ${MIN_DRAWN_PX} px: not cut, its stickers would be upscaled`;
	await ctx.fileStore.put(
		key,
		JSON.stringify(
			{
				jobId: ctx.jobId,
				sheetNumber: sheet,
				attempt,
				ok: false,
				reason,
				drawn: { width: size.width, height: size.height, cell: size.cell }
			},
			null,
			2
		)
	);
	ctx.logger.warn({ jobId: ctx.jobId, sheet, attempt, reason }, 'sheet too small to cut');
}

export async function readSticker(ctx: PipelineContext, n: number): Promise<Buffer> {
	return readStored(ctx.fileStore, ctx.files.keys.sticker(n));
}
