/**
 * Finding figures on a flat-background sheet, on raw RGB pixels (no images are re-encoded here).
 * The mask is built on a coarse grid (one cell = BLOCK×BLOCK pixels) and dilated so a caption or a
 * decoration next to a figure joins it; connected cells are one figure.
 */
/** Must stay 4: the loops use `>> 2` for the division. */
export const BLOCK = 4;

export interface Rgb {
	r: number;
	g: number;
	b: number;
}

export interface Blob {
	label: number;
	/** Full-resolution bounding box. */
	x: number;
	y: number;
	width: number;
	height: number;
	/** Foreground pixels (full resolution) inside the blob. */
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

/** Squared colour distance from the background above which a pixel counts as figure. */
export const FOREGROUND_DISTANCE = 70;

export function findBlobs(rgb: Buffer, width: number, height: number, bg: Rgb, joinRadius: number): CoarseMask {
	const cols = Math.ceil(width / BLOCK);
	const rows = Math.ceil(height / BLOCK);
	const counts = new Uint16Array(cols * rows);
	const limit = FOREGROUND_DISTANCE * FOREGROUND_DISTANCE;
	const { r: br, g: bgG, b: bb } = bg;
	for (let y = 0; y < height; y++) {
		const rowBase = (y >> 2) * cols;
		for (let x = 0, i = y * width * 3; x < width; x++, i += 3) {
			const dr = rgb[i]! - br;
			const dg = rgb[i + 1]! - bgG;
			const db = rgb[i + 2]! - bb;
			if (dr * dr + dg * dg + db * db > limit) counts[rowBase + (x >> 2)]! += 1;
		}
	}
	const solid = dilate(counts, cols, rows, joinRadius);
	return labelBlobs(solid, counts, cols, rows);
}

/** A cell is set when any cell within `radius` has foreground (a square structuring element). */
function dilate(counts: Uint16Array, cols: number, rows: number, radius: number): Uint8Array {
	const horizontal = new Uint8Array(cols * rows);
	for (let y = 0; y < rows; y++) {
		let last = -Infinity;
		for (let x = 0; x < cols; x++) {
			if (counts[y * cols + x]! > 1) last = x;
			if (x - last <= radius) horizontal[y * cols + x] = 1;
		}
		last = Infinity;
		for (let x = cols - 1; x >= 0; x--) {
			if (counts[y * cols + x]! > 1) last = x;
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

function labelBlobs(solid: Uint8Array, counts: Uint16Array, cols: number, rows: number): CoarseMask {
	const labels = new Int32Array(cols * rows);
	const blobs: Blob[] = [];
	const stack = new Int32Array(cols * rows);
	for (let start = 0; start < solid.length; start++) {
		if (!solid[start] || labels[start]) continue;
		const label = blobs.length + 1;
		let top = 0;
		stack[top++] = start;
		labels[start] = label;
		let minX = cols, minY = rows, maxX = 0, maxY = 0, area = 0;
		while (top > 0) {
			const cell = stack[--top]!;
			const cx = cell % cols;
			const cy = (cell - cx) / cols;
			area += counts[cell]!;
			if (cx < minX) minX = cx;
			if (cx > maxX) maxX = cx;
			if (cy < minY) minY = cy;
			if (cy > maxY) maxY = cy;
			// Four neighbours inline: an array of them per cell was most of this loop's time (allocation).
			if (cx > 0 && solid[cell - 1] && !labels[cell - 1]) (labels[cell - 1] = label), (stack[top++] = cell - 1);
			if (cx < cols - 1 && solid[cell + 1] && !labels[cell + 1]) (labels[cell + 1] = label), (stack[top++] = cell + 1);
			if (cy > 0 && solid[cell - cols] && !labels[cell - cols]) (labels[cell - cols] = label), (stack[top++] = cell - cols);
			if (cy < rows - 1 && solid[cell + cols] && !labels[cell + cols]) (labels[cell + cols] = label), (stack[top++] = cell + cols);
		}
		blobs.push({ label, x: minX * BLOCK, y: minY * BLOCK, width: (maxX - minX + 1) * BLOCK, height: (maxY - minY + 1) * BLOCK, area });
	}
	return { cols, rows, labels, blobs };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
