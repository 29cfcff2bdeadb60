import { BLOCK, type Box, type CoarseMask, type Rgb } from './sticker-grid.ts';
import { refineEdges } from './sticker-edge.ts';

/**
 * The soft alpha of one figure, computed on its region already resized to sticker size (so the
 * loop walks ~0.25 Mpx, not the full-resolution region): alpha from the colour distance to the
 * background, limited to the figure's own blob, with the background colour un-mixed from edge pixels
 * (they are a blend of figure and background, by anti-aliasing and by the resize).
 */
export interface MatteInput {
	/** RGB of `region` of the sheet, resized to width × height. */
	rgb: Buffer;
	width: number;
	height: number;
	region: Box;
	mask: CoarseMask;
	label: number;
	background: Rgb;
}

/** RGBA on a transparent canvas `margin` px larger on every side, and its alpha as one band. */
export interface Matte {
	rgba: Buffer;
	alpha: Buffer;
	width: number;
	height: number;
}

/** Alpha ramps from 0 to 1 between these colour distances from the background. */
const EDGE_LOW = 40;
const EDGE_HIGH = 120;

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

/** Alpha of one sheet colour, for tests and diagnostics. */
export function alphaOf(r: number, g: number, b: number, bg: Rgb): number {
	return ALPHA_BY_DISTANCE2[(r - bg.r) ** 2 + (g - bg.g) ** 2 + (b - bg.b) ** 2]!;
}

/**
 * Canvas memory reused from figure to figure, and from sheet to sheet (cleared each time): in this
 * VM the first touch of fresh memory costs ~3.5 ms per 1.4 MB canvas (page faults), and a fresh
 * canvas per figure was also external memory V8 answered with extra garbage collections.
 */
export class MatteScratch {
	/** Room for the largest canvas a sticker needs (~530 px a side), so it is allocated once. */
	private static readonly PIXELS = 560 * 560;
	private rgba = Buffer.alloc(0);
	private alpha = Buffer.alloc(0);

	/** Zeroed RGBA and alpha canvases of `pixels` pixels, valid until the next call. */
	take(pixels: number): { rgba: Buffer; alpha: Buffer } {
		if (this.alpha.length < pixels) {
			const room = Math.max(pixels, MatteScratch.PIXELS);
			this.rgba = Buffer.alloc(room * 4); // zeroed already
			this.alpha = Buffer.alloc(room);
			return { rgba: this.rgba.subarray(0, pixels * 4), alpha: this.alpha.subarray(0, pixels) };
		}
		return { rgba: this.rgba.subarray(0, pixels * 4).fill(0), alpha: this.alpha.subarray(0, pixels).fill(0) };
	}
}

const spareScratches: MatteScratch[] = [];

/** A canvas for one lane of figures; give it back with `returnScratch` when the lane is done. */
export function borrowScratch(): MatteScratch {
	return spareScratches.pop() ?? new MatteScratch();
}

export function returnScratch(scratch: MatteScratch): void {
	// Two sheets cut at once, three lanes each, is the most the worker does; keep no more than that.
	if (spareScratches.length < 6) spareScratches.push(scratch);
}

export function matteFigure(input: MatteInput, margin: number, scratch = new MatteScratch()): Matte {
	const { rgb, width: w, height: h, mask, label } = input;
	const outW = w + 2 * margin;
	const outH = h + 2 * margin;
	const { rgba, alpha } = scratch.take(outW * outH);
	const columnCells = cellsAlong(input.region.x, input.region.width, w, mask.cols);
	const rowCells = cellsAlong(input.region.y, input.region.height, h, mask.rows);
	const { r, g, b } = input.background;
	for (let y = 0; y < h; y++) {
		const labelRow = mask.labels.subarray(rowCells[y]! * mask.cols, (rowCells[y]! + 1) * mask.cols);
		matteRow(
			rgb.subarray(y * w * 3, (y + 1) * w * 3),
			rgba,
			alpha,
			(y + margin) * outW + margin,
			labelRow,
			columnCells,
			label,
			r,
			g,
			b
		);
	}
	refineEdges({ rgb, width: w, height: h, rgba, alpha, canvasWidth: outW, margin, background: input.background });
	return { rgba, alpha, width: outW, height: outH };
}

/**
 * One row of the matte: `source` is the row's RGB, `p` the canvas index of its first pixel,
 * `labels` the coarse row it lies in. A function per row rather than one loop over the figure,
 * taking plain arguments rather than an object (whose field assumptions V8 kept invalidating):
 * it is called hundreds of times per figure, so V8 optimises it within the first one.
 */
function matteRow(
	source: Buffer,
	rgba: Buffer,
	alpha: Buffer,
	p: number,
	labels: Int32Array,
	columnCells: Int32Array,
	label: number,
	br: number,
	bg: number,
	bb: number
): void {
	for (let x = 0, i = 0; x < columnCells.length; x++, i += 3, p++) {
		if (labels[columnCells[x]!] !== label) continue;
		const r = source[i]!,
			g = source[i + 1]!,
			b = source[i + 2]!;
		const dr = r - br,
			dg = g - bg,
			db = b - bb;
		const a = ALPHA_BY_DISTANCE2[dr * dr + dg * dg + db * db]!;
		if (a === 0) continue;
		alpha[p] = a;
		const o = p * 4;
		rgba[o] = r;
		rgba[o + 1] = g;
		rgba[o + 2] = b;
		rgba[o + 3] = a;
		if (a !== 255) unmix(rgba, o, a, br, bg, bb);
	}
}

/** The coarse cell (< count) under each of `size` output pixels spread over `length` sheet pixels from `start`. */
function cellsAlong(start: number, length: number, size: number, count: number): Int32Array {
	const cells = new Int32Array(size);
	const step = length / size;
	for (let i = 0; i < size; i++) cells[i] = Math.min(count - 1, Math.floor((start + (i + 0.5) * step) / BLOCK));
	return cells;
}

/** An edge pixel is c = a·figure + (1 − a)·background: solve for the figure's colour, in place. */
function unmix(rgba: Buffer, o: number, a: number, br: number, bg: number, bb: number): void {
	const k = 255 - a;
	rgba[o] = clamp255(((rgba[o]! * 255 - k * br) / a) | 0);
	rgba[o + 1] = clamp255(((rgba[o + 1]! * 255 - k * bg) / a) | 0);
	rgba[o + 2] = clamp255(((rgba[o + 2]! * 255 - k * bb) / a) | 0);
}

function clamp255(v: number): number {
	return v < 0 ? 0 : v > 255 ? 255 : v;
}
