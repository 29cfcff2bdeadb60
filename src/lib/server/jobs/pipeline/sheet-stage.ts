import { readFile } from 'node:fs/promises';
import { ensureLayoutGuide } from '../../media/layout-guide.ts';
import { cutSheet } from '../../media/sticker-cutter.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { allExist, writeFileAtomic } from './job-files.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { callProvider } from './provider-call.ts';

/**
 * sheet → cut: two 3×2 sheets make the 12 stickers. Every attempt is kept under debug_sheets/
 * (job<N>_sheet<K>_try<M>.png + .json cut diagnosis); a sheet whose figure count is wrong is
 * rejected and drawn again, up to SHEET_TRIES times.
 */
export const SHEET_FORMAT = { cols: 3, rows: 2, width: 1536, height: 1024 } as const;
const PER_SHEET = SHEET_FORMAT.cols * SHEET_FORMAT.rows;
export const SHEET_COUNT = Math.ceil(STICKER_VARIANTS.length / PER_SHEET);
const SHEET_TRIES = 3;

export async function ensureSheets(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer): Promise<void> {
	const guide = await ensureLayoutGuide(ctx.dataDir, SHEET_FORMAT);
	for (let sheet = 1; sheet <= SHEET_COUNT; sheet++) {
		const first = (sheet - 1) * PER_SHEET;
		const numbers = STICKER_VARIANTS.slice(first, first + PER_SHEET).map((_, i) => first + i + 1);
		if (allExist(numbers.map((n) => ctx.files.sticker(n)))) continue;
		await drawAndCutSheet(ctx, appearance, anchor, guide, sheet, first, numbers);
	}
}

async function drawAndCutSheet(ctx: PipelineContext, appearance: AppearanceCard, anchor: Buffer, guide: Buffer, sheet: number, first: number, numbers: number[]): Promise<void> {
	const variants = STICKER_VARIANTS.slice(first, first + numbers.length);
	for (let attempt = 1; attempt <= SHEET_TRIES; attempt++) {
		await ctx.enterStage('sheet', `sheet ${sheet} of ${SHEET_COUNT}`);
		const image = await callProvider(ctx, 'sheet', 'image', () =>
			ctx.provider.drawSheet({ brief: ctx.brief, appearance, anchor, layoutGuide: guide, variants, firstIndex: first, cols: SHEET_FORMAT.cols, rows: SHEET_FORMAT.rows, attempt })
		);
		const base = ctx.files.debug(`sheet${sheet}_try${attempt}`);
		await writeFileAtomic(`${base}.png`, image);
		await ctx.enterStage('cut', `sheet ${sheet} of ${SHEET_COUNT}`);
		const { stickers, diagnosis } = await cutSheet(image, { expected: variants.length });
		await writeFileAtomic(`${base}.json`, JSON.stringify({ jobId: ctx.jobId, sheetNumber: sheet, attempt, ...diagnosis }, null, 2));
		if (diagnosis.ok) {
			for (const [i, png] of stickers.entries()) await writeFileAtomic(ctx.files.sticker(numbers[i]!), png);
			return;
		}
		ctx.logger.warn({ jobId: ctx.jobId, sheet, attempt, reason: diagnosis.reason }, 'sheet rejected by the cutter');
	}
	throw new ProviderError('bad_output', `sheet ${sheet}: no usable sheet after ${SHEET_TRIES} tries`);
}

export async function readSticker(ctx: PipelineContext, n: number): Promise<Buffer> {
	return readFile(ctx.files.sticker(n));
}
