import sharp from 'sharp';

/**
 * Finding figures on a flat-background sheet, on raw RGB pixels (no images are re-encoded here).
 * The mask is built on a coarse grid (one cell = BLOCK×BLOCK pixels, the cell's mean colour, which
 * sharp computes in its own threads) and dilated so a caption or a decoration next to a figure
 * joins it; connected cells are one figure.
 */
export const BLOCK = 4;

export interface Rgb {
	r: number;
	g: number;
	b: number;
}

export interface Box {
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface Blob extends Box {
	label: number;
	/** Full-resolution box of the cells that are figure (x, y, width, height above include the dilation). */
	core: Box;
	/** Foreground area in full-resolution pixels (foreground cells × BLOCK²). */
	area: number;
}

export interface CoarseMask {
	cols: number;
	rows: number;
	labels: Int32Array;
	blobs: Blob[];
}

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
	for (let x = 0; x < width; x += 3) (take(x, 1), take(x, height - 2));
	for (let y = 0; y < height; y += 3) (take(1, y), take(width - 2, y));
	return { r: median(rs), g: median(gs), b: median(bs) };
}

/**
 * Mean colour of every BLOCK×BLOCK cell (the last < BLOCK rows/columns are border and dropped):
 * an exact ¼ shrink in sharp, so blob finding walks 1/16 of the sheet's pixels in JS.
 */
export async function averageCells(rgb: Buffer, width: number, height: number): Promise<{ data: Buffer; cols: number; rows: number }> {
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
	const foreground = new Uint8Array(cols * rows);
	const limit = FOREGROUND_DISTANCE * FOREGROUND_DISTANCE;
	const { r: br, g: bgG, b: bb } = bg;
	for (let c = 0, i = 0; c < foreground.length; c++, i += 3) {
		const dr = cells[i]! - br;
		const dg = cells[i + 1]! - bgG;
		const db = cells[i + 2]! - bb;
		if (dr * dr + dg * dg + db * db > limit) foreground[c] = 1;
	}
	const solid = dilate(foreground, cols, rows, joinRadius);
	return labelBlobs(solid, foreground, cols, rows);
}

/** A cell is set when any cell within `radius` has foreground (a square structuring element). */
function dilate(seed: Uint8Array, cols: number, rows: number, radius: number): Uint8Array {
	const horizontal = new Uint8Array(cols * rows);
	for (let y = 0; y < rows; y++) {
		let last = -Infinity;
		for (let x = 0; x < cols; x++) {
			if (seed[y * cols + x]) last = x;
			if (x - last <= radius) horizontal[y * cols + x] = 1;
		}
		last = Infinity;
		for (let x = cols - 1; x >= 0; x--) {
			if (seed[y * cols + x]) last = x;
			if (last - x <= radius) horizontal[y * cols + x] = 1;
		}
	}
	const out = new Uint8Array(cols * rows);
	for (let x = 0; x < cols; x++) {
		let last = -Infinity;
		for (let y = 0; y < rows; y++) {
			if (horizontal[y * cols + x]) last = y;
			if (y - last <= radius) out[y * cols + x] = 1;
		}
		last = Infinity;
		for (let y = rows - 1; y >= 0; y--) {
			if (horizontal[y * cols + x]) last = y;
			if (last - y <= radius) out[y * cols + x] = 1;
		}
	}
	return out;
}

function labelBlobs(solid: Uint8Array, foreground: Uint8Array, cols: number, rows: number): CoarseMask {
	const labels = new Int32Array(cols * rows);
	const blobs: Blob[] = [];
	const stack = new Int32Array(cols * rows);
	for (let start = 0; start < solid.length; start++) {
		if (!solid[start] || labels[start]) continue;
		const label = blobs.length + 1;
		let top = 0;
		stack[top++] = start;
		labels[start] = label;
		const all = new CellBox(cols, rows);
		const core = new CellBox(cols, rows);
		while (top > 0) {
			const cell = stack[--top]!;
			const cx = cell % cols;
			const cy = (cell - cx) / cols;
			all.add(cx, cy);
			if (foreground[cell]) core.add(cx, cy);
			// Four neighbours inline: an array of them per cell was most of this loop's time (allocation).
			if (cx > 0 && solid[cell - 1] && !labels[cell - 1]) (labels[cell - 1] = label), (stack[top++] = cell - 1);
			if (cx < cols - 1 && solid[cell + 1] && !labels[cell + 1]) (labels[cell + 1] = label), (stack[top++] = cell + 1);
			if (cy > 0 && solid[cell - cols] && !labels[cell - cols]) (labels[cell - cols] = label), (stack[top++] = cell - cols);
			if (cy < rows - 1 && solid[cell + cols] && !labels[cell + cols]) (labels[cell + cols] = label), (stack[top++] = cell + cols);
		}
		blobs.push({ label, ...all.toPixels(), core: core.toPixels(), area: core.count * BLOCK * BLOCK });
	}
	return { cols, rows, labels, blobs };
}

/** Bounding box of a set of cells, growing one cell at a time. */
class CellBox {
	minX: number;
	minY: number;
	maxX = -1;
	maxY = -1;
	count = 0;
	constructor(cols: number, rows: number) {
		this.minX = cols;
		this.minY = rows;
	}
	add(cx: number, cy: number): void {
		this.count++;
		if (cx < this.minX) this.minX = cx;
		if (cx > this.maxX) this.maxX = cx;
		if (cy < this.minY) this.minY = cy;
		if (cy > this.maxY) this.maxY = cy;
	}
	toPixels(): Box {
		if (this.maxX < 0) return { x: 0, y: 0, width: 0, height: 0 };
		return { x: this.minX * BLOCK, y: this.minY * BLOCK, width: (this.maxX - this.minX + 1) * BLOCK, height: (this.maxY - this.minY + 1) * BLOCK };
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
