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
const IN_FLIGHT = 2;

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
	// The JS matte of figure n+1 runs while sharp (in its own threads) finishes figure n; at most
	// IN_FLIGHT figures are held at once, so memory stays flat.
	const pending: Promise<Buffer>[] = [];
	for (const [i, blob] of figures.entries()) {
		if (i >= IN_FLIGHT) await pending[i - IN_FLIGHT];
		const rgba = extractFigure(rgb, width, height, background, mask, blob);
		pending.push(
			finishSticker(rgba.data, rgba.width, rgba.height).then((png) => {
				reports[i]!.output = { width: png.width, height: png.height, bytes: png.data.length };
				return png.data;
			})
		);
	}
	const stickers = await Promise.all(pending);
	diagnosis.ms = Math.round(performance.now() - started);
	return { stickers, diagnosis };
}

/** Alpha by squared colour distance from the background: a smoothstep from EDGE_LOW to EDGE_HIGH, as a table. */
const ALPHA_BY_DISTANCE2 = buildAlphaTable();

function buildAlphaTable(): Uint8Array {
	const table = new Uint8Array(3 * 255 * 255 + 1);
	for (let d2 = 0; d2 < table.length; d2++) {
		const t = Math.min(1, Math.max(0, (Math.sqrt(d2) - EDGE_LOW) / (EDGE_HIGH - EDGE_LOW)));
		table[d2] = Math.round(t * t * (3 - 2 * t) * 255);
	}
	return table;
}

/**
 * RGBA of one figure: soft alpha from colour distance, limited to the figure's own blob; edge
 * pixels are a mix of figure and background, so the background share is taken back out.
 */
function extractFigure(rgb: Buffer, width: number, height: number, bg: Rgb, mask: CoarseMask, blob: Blob): { data: Buffer; width: number; height: number } {
	const x0 = blob.x;
	const y0 = blob.y;
	const w = Math.min(blob.width, width - x0);
	const h = Math.min(blob.height, height - y0);
	const out = Buffer.alloc(w * h * 4);
	const labels = mask.labels;
	const label = blob.label;
	// Locals, not bg.r etc.: this loop runs over every pixel of every figure.
	const br = bg.r, bgG = bg.g, bb = bg.b;
	for (let y = 0; y < h; y++) {
		const labelRow = ((y0 + y) >> 2) * mask.cols;
		let i = ((y0 + y) * width + x0) * 3;
		let o = y * w * 4;
		for (let x = 0; x < w; x++, i += 3, o += 4) {
			if (labels[labelRow + ((x0 + x) >> 2)] !== label) continue;
			const r = rgb[i]!, g = rgb[i + 1]!, b = rgb[i + 2]!;
			const dr = r - br, dg = g - bgG, db = b - bb;
			const alpha = ALPHA_BY_DISTANCE2[dr * dr + dg * dg + db * db]!;
			if (alpha === 0) continue;
			out[o + 3] = alpha;
			if (alpha === 255) {
				out[o] = r;
				out[o + 1] = g;
				out[o + 2] = b;
				continue;
			}
			const k = 255 - alpha;
			out[o] = clamp255(((r * 255 - k * br) / alpha) | 0);
			out[o + 1] = clamp255(((g * 255 - k * bgG) / alpha) | 0);
			out[o + 2] = clamp255(((b * 255 - k * bb) / alpha) | 0);
		}
	}
	return { data: out, width: w, height: h };
}

function clamp255(v: number): number {
	return v < 0 ? 0 : v > 255 ? 255 : v;
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
