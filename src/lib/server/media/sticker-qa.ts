import sharp from 'sharp';
import type { FaceDetector } from './face-detector.ts';

/**
 * The quality gate every sticker passes before delivery, whatever drew it: exactly one person
 * (face count with the offline face model), not blank, the head not cut by the sticker's edge, and
 * no hole inside the figure (see-through pixels the figure encloses: a costume the keyer took for
 * the sheet colour).
 */
export interface StickerVerdict {
	ok: boolean;
	faces: number;
	coverage: number;
	/** The largest see-through region enclosed by the figure, in pixels (0 = none). */
	largestHole: number;
	reasons: string[];
	meanColour: { r: number; g: number; b: number };
}

/** A sticker whose visible part covers less than this share of its box is treated as blank. */
const MIN_COVERAGE = 0.12;
/** Alpha below this is see-through (the white outline and the figure are opaque). */
const SEE_THROUGH = 128;
/**
 * An enclosed see-through region larger than this (px of the 512-px sticker, ~ a 24-px square) is a
 * hole. Smaller ones are gaps the outline did not close (between fingers, under an arm); a costume
 * keyed out leaves thousands.
 */
export const MAX_HOLE_PX = 600;

export async function inspectSticker(png: Buffer, detector: FaceDetector): Promise<StickerVerdict> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	let visible = 0;
	let r = 0,
		g = 0,
		b = 0;
	for (let i = 0; i < data.length; i += 4) {
		if ((data[i + 3] ?? 0) < 128) continue;
		visible++;
		r += data[i] ?? 0;
		g += data[i + 1] ?? 0;
		b += data[i + 2] ?? 0;
	}
	const coverage = visible / (info.width * info.height);
	const meanColour = visible
		? { r: Math.round(r / visible), g: Math.round(g / visible), b: Math.round(b / visible) }
		: { r: 0, g: 0, b: 0 };
	const reasons: string[] = [];
	if (coverage < MIN_COVERAGE) reasons.push(`blank (${Math.round(coverage * 100)} % visible)`);
	const faces = await detector.findFaces(png);
	if (faces.length !== 1) reasons.push(`${faces.length} faces (exactly one person expected)`);
	const head = faces[0];
	if (faces.length === 1 && head && headIsCut(head, info.width, info.height)) reasons.push('head cut by the edge');
	const largestHole = largestEnclosedHole(data, info.width, info.height);
	if (largestHole > MAX_HOLE_PX) reasons.push(`hole in the figure (${largestHole} px see-through inside it)`);
	return {
		ok: reasons.length === 0,
		faces: faces.length,
		coverage: round3(coverage),
		largestHole,
		reasons,
		meanColour
	};
}

/**
 * The largest region of see-through pixels that does not reach the sticker's border (4-connected):
 * the outside is flooded from every border pixel first, then each enclosed region is measured.
 */
export function largestEnclosedHole(rgba: Buffer, width: number, height: number): number {
	const total = width * height;
	// 1 = see-through and not yet reached; set to 0 once flooded. Opaque pixels are 0 from the start.
	const open = new Uint8Array(total);
	for (let p = 0; p < total; p++) open[p] = rgba[p * 4 + 3]! < SEE_THROUGH ? 1 : 0;
	const queue = new Int32Array(total);
	for (let x = 0; x < width; x++) {
		flood(open, queue, width, x);
		flood(open, queue, width, (height - 1) * width + x);
	}
	for (let y = 0; y < height; y++) {
		flood(open, queue, width, y * width);
		flood(open, queue, width, y * width + width - 1);
	}
	let largest = 0;
	for (let p = 0; p < total; p++) if (open[p]) largest = Math.max(largest, flood(open, queue, width, p));
	return largest;
}

/** Floods the open region holding `start` (4-connected), closing it; returns its size (0 if closed). */
function flood(open: Uint8Array, queue: Int32Array, width: number, start: number): number {
	if (!open[start]) return 0;
	const total = open.length;
	let head = 0;
	let tail = 0;
	queue[tail++] = start;
	open[start] = 0;
	while (head < tail) {
		const p = queue[head++]!;
		const x = p % width;
		if (x > 0 && open[p - 1]) {
			open[p - 1] = 0;
			queue[tail++] = p - 1;
		}
		if (x < width - 1 && open[p + 1]) {
			open[p + 1] = 0;
			queue[tail++] = p + 1;
		}
		if (p >= width && open[p - width]) {
			open[p - width] = 0;
			queue[tail++] = p - width;
		}
		if (p + width < total && open[p + width]) {
			open[p + width] = 0;
			queue[tail++] = p + width;
		}
	}
	return tail;
}

/** The face box reaching the image border means part of the head is outside the sticker. */
function headIsCut(
	face: { x: number; y: number; width: number; height: number },
	width: number,
	height: number
): boolean {
	const margin = 2;
	return (
		face.x <= margin ||
		face.y <= margin ||
		face.x + face.width >= width - margin ||
		face.y + face.height >= height - margin
	);
}

function round3(v: number): number {
	return Math.round(v * 1000) / 1000;
}
