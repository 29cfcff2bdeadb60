import sharp from 'sharp';
import { BLOCK, estimateBackground, findBlobs, type Blob, type CoarseMask, type Rgb } from './sticker-mask.ts';
import { finishSticker } from './sticker-format.ts';

/**
 * Cuts a generated sheet into Telegram-ready stickers. Image models draw on a flat colour (they
 * give no real transparency), so: estimate that colour from the border, find each figure, build a
 * soft alpha from the colour distance (with the background colour un-mixed from edge pixels), add a
 * white outline and fit Telegram's static format. Works on one raw RGB buffer per sheet and one
 * small region per figure; nothing larger is ever held.
 */
export interface CutOptions {
	expected: number;
	/** Coarse cells (of BLOCK px) that join a caption to its figure. */
	joinRadius?: number;
	/** Blobs smaller than this share of the sheet are specks, not figures. */
	minAreaShare?: number;
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
	expected: number;
	found: number;
	figures: FigureReport[];
	rejects: { box: FigureReport['box']; area: number; reason: string }[];
	ms: number;
}

export interface CutResult {
	stickers: Buffer[];
	diagnosis: CutDiagnosis;
}

/** Alpha ramps from 0 to 1 between these colour distances from the background. */
const EDGE_LOW = 40;
const EDGE_HIGH = 120;

export async function cutSheet(sheet: Buffer | string, options: CutOptions): Promise<CutResult> {
	const started = performance.now();
	const { data: rgb, info } = await sharp(sheet).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const { width, height } = info;
	const background = estimateBackground(rgb, width, height);
	const mask = findBlobs(rgb, width, height, background, options.joinRadius ?? 3);
	const minArea = width * height * (options.minAreaShare ?? 0.006);
	const figures = orderForReading(mask.blobs.filter((b) => b.area >= minArea), options.expected);
	const rejects = mask.blobs.filter((b) => b.area < minArea).map((b) => ({ box: boxOf(b), area: b.area, reason: 'speck' }));
	const reports: FigureReport[] = figures.map((b, index) => ({ index, box: boxOf(b), area: b.area, touchesEdge: touchesEdge(b, width, height) }));
	const diagnosis: CutDiagnosis = { ok: true, sheet: { width, height }, background, expected: options.expected, found: figures.length, figures: reports, rejects, ms: 0 };
	if (figures.length !== options.expected) {
		diagnosis.ok = false;
		diagnosis.reason = `found ${figures.length} figures, expected ${options.expected}`;
		diagnosis.ms = Math.round(performance.now() - started);
		return { stickers: [], diagnosis };
	}
	const stickers: Buffer[] = [];
	for (const [i, blob] of figures.entries()) {
		const rgba = extractFigure(rgb, width, height, background, mask, blob);
		const png = await finishSticker(rgba.data, rgba.width, rgba.height);
		stickers.push(png.data);
		reports[i]!.output = { width: png.width, height: png.height, bytes: png.data.length };
	}
	diagnosis.ms = Math.round(performance.now() - started);
	return { stickers, diagnosis };
}

/** RGBA of one figure: soft alpha from colour distance, limited to the figure's own blob. */
function extractFigure(rgb: Buffer, width: number, height: number, bg: Rgb, mask: CoarseMask, blob: Blob): { data: Buffer; width: number; height: number } {
	const x0 = blob.x;
	const y0 = blob.y;
	const w = Math.min(blob.width, width - x0);
	const h = Math.min(blob.height, height - y0);
	const out = Buffer.alloc(w * h * 4);
	for (let y = 0; y < h; y++) {
		const labelRow = Math.floor((y0 + y) / BLOCK) * mask.cols;
		for (let x = 0; x < w; x++) {
			const o = (y * w + x) * 4;
			if (mask.labels[labelRow + Math.floor((x0 + x) / BLOCK)] !== blob.label) continue;
			const i = ((y0 + y) * width + x0 + x) * 3;
			writeUnmixed(out, o, rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0, bg);
		}
	}
	return { data: out, width: w, height: h };
}

/** Edge pixels are a mix of figure and background: take the background share back out. */
function writeUnmixed(out: Buffer, o: number, r: number, g: number, b: number, bg: Rgb): void {
	const distance = Math.sqrt((r - bg.r) ** 2 + (g - bg.g) ** 2 + (b - bg.b) ** 2);
	const t = Math.min(1, Math.max(0, (distance - EDGE_LOW) / (EDGE_HIGH - EDGE_LOW)));
	const alpha = t * t * (3 - 2 * t);
	if (alpha <= 0) return;
	const un = (c: number, k: number) => Math.max(0, Math.min(255, Math.round((c - (1 - alpha) * k) / alpha)));
	out[o] = un(r, bg.r);
	out[o + 1] = un(g, bg.g);
	out[o + 2] = un(b, bg.b);
	out[o + 3] = Math.round(alpha * 255);
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
