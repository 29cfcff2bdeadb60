import sharp from 'sharp';
import { BLOCK, type Blob, type Box, type CoarseMask, type Rgb } from './sticker-grid.ts';
import { averageCells, estimateBackground, findBlobs } from './sticker-mask.ts';
import { FIGURE_SIDE, finishSticker, STICKER_MARGIN, type FinishedSticker } from './sticker-format.ts';
import { borrowScratch, matteFigure, returnScratch, type MatteScratch } from './sticker-matte.ts';

/**
 * Cuts a generated sheet into Telegram-ready stickers. Image models draw on a flat colour (they
 * give no real transparency), so: estimate that colour from the border, find each figure, build a
 * soft alpha from the colour distance (with the background colour un-mixed from edge pixels), add a
 * white outline and fit Telegram's static format. The sheet is decoded once to raw RGB; sharp
 * shrinks it for blob finding and resizes each figure's region to sticker size, so the JS loops
 * only ever walk sticker-sized pixels.
 */
export interface CutOptions {
	expected: number;
	/** Coarse cells (of BLOCK px) that join a caption to its figure. */
	joinRadius?: number;
	/** Blobs smaller than this share of the sheet are specks, not figures. */
	minAreaShare?: number;
	/**
	 * The key colour the sheet was asked on (the job's, sheet-key.ts). The matte keys out the colour
	 * the sheet's border actually shows (models shift it); the asked one is kept in the diagnosis.
	 */
	key?: Rgb;
	/**
	 * The sheet's grid: with figures missing, each found figure is placed in the cell its centre
	 * falls in, and — when no two share a cell — cut anyway (`CutResult.byCell`), so the caller can
	 * keep them and draw only the empty cells' figures.
	 */
	grid?: { cols: number; rows: number };
}

export interface FigureReport {
	index: number;
	box: { x: number; y: number; width: number; height: number };
	area: number;
	touchesEdge: boolean;
	output?: { width: number; height: number; bytes: number };
}

export interface CutDiagnosis {
	ok: boolean;
	reason?: string;
	sheet: { width: number; height: number };
	background: Rgb;
	/** The key colour asked for, when given. */
	asked?: Rgb;
	expected: number;
	found: number;
	figures: FigureReport[];
	rejects: { box: FigureReport['box']; area: number; reason: string }[];
	ms: number;
}

export interface CutResult {
	stickers: Buffer[];
	diagnosis: CutDiagnosis;
	/** A sheet short of figures, with a grid given: each cell's sticker in reading order, null for an empty cell. */
	byCell?: (Buffer | null)[];
}

/** Cells of room kept around a figure's core cells: its anti-aliased or feathered edge. */
const EDGE_CELLS = 3;
const IN_FLIGHT = 3;

export async function cutSheet(sheet: Buffer | string, options: CutOptions): Promise<CutResult> {
	const started = performance.now();
	const { data: rgb, info } = await sharp(sheet).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const { width, height } = info;
	const background = estimateBackground(rgb, width, height);
	const cells = await averageCells(rgb, width, height);
	const mask = findBlobs(cells.data, cells.cols, cells.rows, background, options.joinRadius ?? 3);
	const minArea = width * height * (options.minAreaShare ?? 0.006);
	const figures = orderForReading(
		mask.blobs.filter((b) => b.area >= minArea),
		options.expected
	);
	const rejects = mask.blobs
		.filter((b) => b.area < minArea)
		.map((b) => ({ box: boxOf(b), area: b.area, reason: 'speck' }));
	const reports: FigureReport[] = figures.map((b, index) => ({
		index,
		box: boxOf(b),
		area: b.area,
		touchesEdge: touchesEdge(b, width, height)
	}));
	const diagnosis: CutDiagnosis = {
		ok: true,
		sheet: { width, height },
		background,
		...(options.key ? { asked: options.key } : {}),
		expected: options.expected,
		found: figures.length,
		figures: reports,
		rejects,
		ms: 0
	};
	const source = { rgb, width, height, background, mask };
	if (figures.length !== options.expected) {
		diagnosis.ok = false;
		diagnosis.reason = `found ${figures.length} figures, expected ${options.expected}`;
		const cells =
			figures.length < options.expected && options.grid ? cellsOf(figures, options.grid, width, height) : null;
		if (!cells) {
			diagnosis.ms = Math.round(performance.now() - started);
			return { stickers: [], diagnosis };
		}
		const stickers = await cutAll(source, figures, reports);
		const byCell: (Buffer | null)[] = Array.from({ length: options.expected }, () => null);
		cells.forEach((cell, i) => (byCell[cell] = stickers[i]!));
		diagnosis.reason += `; empty cells ${byCell.flatMap((b, cell) => (b ? [] : [cell + 1])).join(', ')}`;
		diagnosis.ms = Math.round(performance.now() - started);
		return { stickers: [], diagnosis, byCell };
	}
	const stickers = await cutAll(source, figures, reports);
	diagnosis.ms = Math.round(performance.now() - started);
	return { stickers, diagnosis };
}

/**
 * Each figure is a chain of sharp passes (in libvips threads) and short JS loops; IN_FLIGHT
 * figures are kept going at once (a new one starts as soon as one is done), so the JS of one
 * overlaps sharp's work on others while memory stays flat.
 */
async function cutAll(source: SheetSource, figures: Blob[], reports: FigureReport[]): Promise<Buffer[]> {
	const stickers: Buffer[] = new Array(figures.length);
	let next = 0;
	const lane = async () => {
		// One canvas per lane, reused: a lane works on one figure at a time, encode included.
		const scratch = borrowScratch();
		try {
			for (let i = next++; i < figures.length; i = next++) {
				const png = await cutFigure(source, figures[i]!, scratch);
				reports[i]!.output = { width: png.width, height: png.height, bytes: png.data.length };
				stickers[i] = png.data;
			}
		} finally {
			returnScratch(scratch);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
	return stickers;
}

/** The grid cell (reading order) of each figure's centre, or null when two figures share one. */
function cellsOf(
	figures: Blob[],
	grid: { cols: number; rows: number },
	width: number,
	height: number
): number[] | null {
	const cells = figures.map((b) => {
		const col = Math.min(grid.cols - 1, Math.floor(((b.x + b.width / 2) / width) * grid.cols));
		const row = Math.min(grid.rows - 1, Math.floor(((b.y + b.height / 2) / height) * grid.rows));
		return row * grid.cols + col;
	});
	return new Set(cells).size === cells.length ? cells : null;
}

interface SheetSource {
	rgb: Buffer;
	width: number;
	height: number;
	background: Rgb;
	mask: CoarseMask;
}

/** One figure: its region resized by sharp so its core spans FIGURE_SIDE, matted there, outlined and encoded. */
async function cutFigure(sheet: SheetSource, blob: Blob, scratch: MatteScratch): Promise<FinishedSticker> {
	const region = regionOf(blob, sheet.width, sheet.height);
	const scale = FIGURE_SIDE / Math.max(blob.core.width, blob.core.height);
	const width = Math.max(1, Math.round(region.width * scale));
	const height = Math.max(1, Math.round(region.height * scale));
	const rgb = await sharp(sheet.rgb, { raw: { width: sheet.width, height: sheet.height, channels: 3 } })
		.extract({ left: region.x, top: region.y, width: region.width, height: region.height })
		.resize({ width, height, fit: 'fill' })
		.raw()
		.toBuffer();
	const matte = matteFigure(
		{ rgb, width, height, region, mask: sheet.mask, label: blob.label, background: sheet.background },
		STICKER_MARGIN,
		scratch
	);
	return finishSticker(matte);
}

/** The figure's core cells plus room for its soft edge, inside its blob's box and the sheet. */
function regionOf(blob: Blob, width: number, height: number): Box {
	const room = EDGE_CELLS * BLOCK;
	const x0 = Math.max(blob.x, blob.core.x - room, 0);
	const y0 = Math.max(blob.y, blob.core.y - room, 0);
	const x1 = Math.min(blob.x + blob.width, blob.core.x + blob.core.width + room, width);
	const y1 = Math.min(blob.y + blob.height, blob.core.y + blob.core.height + room, height);
	return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Reading order: rows top to bottom (figures whose centres share a band), then left to right. */
function orderForReading(blobs: Blob[], expected: number): Blob[] {
	if (blobs.length === 0) return blobs;
	const band = Math.max(...blobs.map((b) => b.height)) * 0.5;
	const byY = [...blobs].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2));
	const rows: Blob[][] = [];
	for (const blob of byY) {
		const row = rows.at(-1);
		const cy = blob.y + blob.height / 2;
		if (row && Math.abs(cy - (row[0]!.y + row[0]!.height / 2)) < band) row.push(blob);
		else rows.push([blob]);
	}
	void expected;
	return rows.flatMap((row) => row.sort((a, b) => a.x - b.x));
}

function touchesEdge(b: Blob, width: number, height: number): boolean {
	return b.x <= BLOCK || b.y <= BLOCK || b.x + b.width >= width - BLOCK || b.y + b.height >= height - BLOCK;
}

function boxOf(b: Blob): FigureReport['box'] {
	return { x: b.x, y: b.y, width: b.width, height: b.height };
}
