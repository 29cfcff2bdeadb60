import sharp from 'sharp';
import type { FaceDetector } from './face-detector.ts';

/**
 * The quality gate every sticker passes before delivery, whatever drew it: exactly one person
 * (face count with the offline face model), not blank, and the head not cut by the sticker's edge.
 */
export interface StickerVerdict {
	ok: boolean;
	faces: number;
	coverage: number;
	reasons: string[];
	meanColour: { r: number; g: number; b: number };
}

/** A sticker whose visible part covers less than this share of its box is treated as blank. */
const MIN_COVERAGE = 0.12;

export async function inspectSticker(png: Buffer, detector: FaceDetector): Promise<StickerVerdict> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	let visible = 0;
	let r = 0, g = 0, b = 0;
	for (let i = 0; i < data.length; i += 4) {
		if ((data[i + 3] ?? 0) < 128) continue;
		visible++;
		r += data[i] ?? 0;
		g += data[i + 1] ?? 0;
		b += data[i + 2] ?? 0;
	}
	const coverage = visible / (info.width * info.height);
	const meanColour = visible ? { r: Math.round(r / visible), g: Math.round(g / visible), b: Math.round(b / visible) } : { r: 0, g: 0, b: 0 };
	const reasons: string[] = [];
	if (coverage < MIN_COVERAGE) reasons.push(`blank (${Math.round(coverage * 100)} % visible)`);
	const faces = await detector.findFaces(png);
	if (faces.length !== 1) reasons.push(`${faces.length} faces (exactly one person expected)`);
	const head = faces[0];
	if (faces.length === 1 && head && headIsCut(head, info.width, info.height)) reasons.push('head cut by the edge');
	return { ok: reasons.length === 0, faces: faces.length, coverage: round3(coverage), reasons, meanColour };
}

/** The face box reaching the image border means part of the head is outside the sticker. */
function headIsCut(face: { x: number; y: number; width: number; height: number }, width: number, height: number): boolean {
	const margin = 2;
	return face.x <= margin || face.y <= margin || face.x + face.width >= width - margin || face.y + face.height >= height - margin;
}

function round3(v: number): number {
	return Math.round(v * 1000) / 1000;
}
