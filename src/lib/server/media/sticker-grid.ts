/**
 * The coarse grid figure finding works on, shared by the mask (sticker-mask.ts, which builds it)
 * and the labelling (sticker-blobs.ts, which names its figures): one cell = BLOCK×BLOCK pixels
 * of the sheet, boxes in full-resolution pixels.
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
