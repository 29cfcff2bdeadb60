import sharp from 'sharp';
import { dilate, labelBlobs } from './sticker-blobs.ts';
import { BLOCK, type CoarseMask, type Rgb } from './sticker-grid.ts';

/**
 * Finding figures on a flat-background sheet, on raw RGB pixels (no images are re-encoded here).
 * The mask is built on a coarse grid (one cell = BLOCK×BLOCK pixels, the cell's mean colour, which
 * sharp computes in its own threads) and dilated so a caption or a decoration next to a figure
 * joins it; connected cells are one figure.
 */

/** The background is whatever colour dominates the sheet's border (median per channel). */
export function estimateBackground(rgb: Buffer, width: number, height: number): Rgb {
	const rs: number[] = [];
	const gs: number[] = [];
	const bs: number[] = [];
	const take = (x: number, y: number) => {
		const i = (y * width + x) * 3;
		rs.push(rgb[i] ?? 0);
		gs.push(rgb[i + 1] ?? 0);
		bs.push(rgb[i + 2] ?? 0);
	};
	for (let x = 0; x < width; x += 3) {
		take(x, 1);
		take(x, height - 2);
	}
	for (let y = 0; y < height; y += 3) {
		take(1, y);
		take(width - 2, y);
	}
	return { r: median(rs), g: median(gs), b: median(bs) };
}

/**
 * Mean colour of every BLOCK×BLOCK cell (the last < BLOCK rows/columns are border and dropped):
 * an exact ¼ shrink in sharp, so blob finding walks 1/16 of the sheet's pixels in JS.
 */
export async function averageCells(
	rgb: Buffer,
	width: number,
	height: number
): Promise<{ data: Buffer; cols: number; rows: number }> {
	const cols = Math.floor(width / BLOCK);
	const rows = Math.floor(height / BLOCK);
	const data = await sharp(rgb, { raw: { width, height, channels: 3 } })
		.extract({ left: 0, top: 0, width: cols * BLOCK, height: rows * BLOCK })
		.resize(cols, rows, { fit: 'fill', kernel: 'linear' })
		.raw()
		.toBuffer();
	return { data, cols, rows };
}

/** Squared colour distance from the background above which a cell's mean colour counts as figure. */
export const FOREGROUND_DISTANCE = 70;

export function findBlobs(cells: Buffer, cols: number, rows: number, bg: Rgb, joinRadius: number): CoarseMask {
	const grid = { cols, rows, foreground: new Uint8Array(cols * rows), counted: new Int32Array(cols * rows) };
	classifyCells(cells, grid.foreground, grid.counted, bg.r, bg.g, bg.b);
	return labelBlobs(grid, dilate(grid, joinRadius));
}

/**
 * The only loop over every cell: foreground where the cell's mean colour is far from the sheet's,
 * and `counted` (foreground cells so far, in raster order), which lets the labelling count a run's
 * foreground cells without walking it. A function of its own with nothing after the loop: V8
 * optimises it mid-loop, and code after the loop that has never run would throw that away.
 */
function classifyCells(
	cells: Buffer,
	foreground: Uint8Array,
	counted: Int32Array,
	br: number,
	bg: number,
	bb: number
): void {
	const limit = FOREGROUND_DISTANCE * FOREGROUND_DISTANCE;
	for (let c = 0, i = 0, count = 0; c < counted.length; c++, i += 3) {
		const dr = cells[i]! - br;
		const dg = cells[i + 1]! - bg;
		const db = cells[i + 2]! - bb;
		if (dr * dr + dg * dg + db * db > limit) {
			foreground[c] = 1;
			count++;
		}
		counted[c] = count;
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
