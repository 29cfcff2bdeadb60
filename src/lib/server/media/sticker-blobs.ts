import { BLOCK, type Blob, type Box, type CoarseMask } from './sticker-grid.ts';

/**
 * Dilation and connected-component labelling of the coarse figure mask, row run by row run: a
 * sheet's mask has a few runs per row, so the JS here loops over runs while the typed arrays' own
 * indexOf/fill (native) walk the cells. This runs a few times per process, mostly before V8 has
 * optimised it, where a per-cell JS loop measured ~40 ms a sheet.
 */
export interface CellGrid {
	cols: number;
	rows: number;
	/** 1 where a cell's mean colour is figure. */
	foreground: Uint8Array;
	/** Foreground cells up to and including each cell, in raster order. */
	counted: Int32Array;
}

/** A cell is set when any foreground cell is within `radius` cells (a square structuring element). */
export function dilate(grid: CellGrid, radius: number): Uint8Array {
	const { cols, rows } = grid;
	const solid = new Uint8Array(cols * rows);
	const runs: number[] = [];
	for (let y = 0; y < rows; y++) {
		runsIn(grid.foreground, y * cols, cols, runs);
		const grown = growRuns(runs, radius, cols);
		for (let dy = Math.max(0, y - radius); dy <= Math.min(rows - 1, y + radius); dy++) {
			for (let k = 0; k < grown.length; k += 2) solid.fill(1, dy * cols + grown[k]!, dy * cols + grown[k + 1]!);
		}
	}
	return solid;
}

/** Connected solid cells (4-neighbours) get one label, numbered in raster order of their first cell. */
export function labelBlobs(grid: CellGrid, solid: Uint8Array): CoarseMask {
	const { cols, rows } = grid;
	const runs = findConnectedRuns(solid, cols, rows);
	const labels = new Int32Array(cols * rows);
	const blobs: Blob[] = [];
	const tallies: Tally[] = [];
	const labelOfRoot = new Map<number, number>();
	for (let id = 0; id < runs.start.length; id++) {
		const root = runs.find(id);
		let label = labelOfRoot.get(root);
		if (label === undefined) {
			label = tallies.push(newTally());
			labelOfRoot.set(root, label);
		}
		const y = runs.row[id]!;
		const from = y * cols + runs.start[id]!;
		const to = y * cols + runs.end[id]!;
		labels.fill(label, from, to);
		tallyRun(tallies[label - 1]!, grid, y, runs.start[id]!, runs.end[id]!);
	}
	for (const [i, t] of tallies.entries())
		blobs.push({ label: i + 1, ...toPixels(t.all), core: toPixels(t.core), area: t.count * BLOCK * BLOCK });
	return { cols, rows, labels, blobs };
}

interface Tally {
	all: [number, number, number, number];
	core: [number, number, number, number];
	count: number;
}

function newTally(): Tally {
	return { all: [Infinity, Infinity, -1, -1], core: [Infinity, Infinity, -1, -1], count: 0 };
}

/** Adds one run (cells start..end−1 of row y) to its blob's boxes and foreground count. */
function tallyRun(t: Tally, grid: CellGrid, y: number, start: number, end: number): void {
	const row = y * grid.cols;
	growBox(t.all, start, end - 1, y);
	const cells = grid.foreground.subarray(row + start, row + end);
	const first = cells.indexOf(1);
	if (first < 0) return;
	growBox(t.core, start + first, start + cells.lastIndexOf(1), y);
	t.count += grid.counted[row + end - 1]! - (row + start > 0 ? grid.counted[row + start - 1]! : 0);
}

function growBox(box: [number, number, number, number], x0: number, x1: number, y: number): void {
	box[0] = Math.min(box[0], x0);
	box[1] = Math.min(box[1], y);
	box[2] = Math.max(box[2], x1);
	box[3] = Math.max(box[3], y);
}

function toPixels([minX, minY, maxX, maxY]: [number, number, number, number]): Box {
	if (maxX < 0) return { x: 0, y: 0, width: 0, height: 0 };
	return { x: minX * BLOCK, y: minY * BLOCK, width: (maxX - minX + 1) * BLOCK, height: (maxY - minY + 1) * BLOCK };
}

/** Every run of set cells, each joined (union-find) with the runs it touches in the row above. */
function findConnectedRuns(solid: Uint8Array, cols: number, rows: number) {
	const start: number[] = [];
	const end: number[] = [];
	const row: number[] = [];
	const parent: number[] = [];
	const find = (id: number): number => {
		while (parent[id] !== id) id = parent[id] = parent[parent[id]!]!;
		return id;
	};
	const runs: number[] = [];
	let above = 0;
	for (let y = 0; y < rows; y++) {
		const first = start.length;
		runsIn(solid, y * cols, cols, runs);
		for (let k = 0; k < runs.length; k += 2) {
			const id = start.push(runs[k]!) - 1;
			end.push(runs[k + 1]!);
			row.push(y);
			parent.push(id);
			while (above < first && end[above]! <= runs[k]!) above++;
			for (let q = above; q < first && start[q]! < runs[k + 1]!; q++) {
				const a = find(id),
					b = find(q);
				if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
			}
		}
		above = first;
	}
	return { start, end, row, find };
}

/** Runs of set cells in one row, as [start, end) pairs into `out`, found by native indexOf. */
function runsIn(mask: Uint8Array, rowStart: number, cols: number, out: number[]): void {
	out.length = 0;
	const cells = mask.subarray(rowStart, rowStart + cols);
	let x = cells.indexOf(1);
	while (x >= 0) {
		const stop = cells.indexOf(0, x);
		const end = stop < 0 ? cols : stop;
		out.push(x, end);
		x = end < cols ? cells.indexOf(1, end) : -1;
	}
}

/** Runs widened by `radius` on both sides (within the row), overlapping ones merged. */
function growRuns(runs: number[], radius: number, cols: number): number[] {
	const grown: number[] = [];
	for (let k = 0; k < runs.length; k += 2) {
		const s = Math.max(0, runs[k]! - radius);
		const e = Math.min(cols, runs[k + 1]! + radius);
		if (grown.length > 0 && s <= grown[grown.length - 1]!)
			grown[grown.length - 1] = Math.max(grown[grown.length - 1]!, e);
		else grown.push(s, e);
	}
	return grown;
}
