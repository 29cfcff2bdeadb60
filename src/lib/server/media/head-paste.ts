import sharp, { type Sharp } from 'sharp';
import type { FaceBox, FaceDetector } from './face-detector.ts';
import type { Rgb } from './sticker-grid.ts';

/**
 * Composite stickers: the guest's head (drawn once per job in stage `heads`) pasted over the face of
 * a generated figure. Both faces are found with the offline face model; the head is scaled so its
 * face matches the figure's face box and cut with a feathered ellipse (face and hair), so it blends
 * into the figure's own hair line. A head drawn on the sheet's flat colour has that colour keyed out
 * first. The paste is drawn "atop" the sticker: it never leaves the figure's silhouette, so the
 * white outline stays where the cutter put it.
 */
export interface PreparedHead {
	rgba: Buffer;
	width: number;
	height: number;
	face: FaceBox;
}

export interface PasteResult {
	png: Buffer;
	/** The figure's face the head was placed on, in sticker pixels. */
	target: FaceBox;
}

/** Alpha ramps from 0 to 1 between these colour distances from the flat sheet colour. */
const KEY_LOW = 60;
const KEY_HIGH = 140;
const MAX_STICKER_BYTES = 512 * 1024;

/** Finds the face on the drawn head and keys out its background; null when no face is there. */
/** `key`: the flat colour the head was drawn on (the job's sheet key). */
export async function prepareHead(head: Buffer, detector: FaceDetector, key: Rgb): Promise<PreparedHead | null> {
	const faces = await detector.findFaces(head);
	const face = largest(faces);
	if (!face) return null;
	const { data, info } = await sharp(head).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	keyOutSheetColour(data, key);
	const ellipse = await headEllipse(info.width, info.height, face);
	for (let p = 0, i = 3; p < ellipse.length; p++, i += 4)
		data[i] = Math.round(((data[i] ?? 0) * (ellipse[p] ?? 0)) / 255);
	return { rgba: data, width: info.width, height: info.height, face };
}

/** Pastes the head over the sticker's face; null when the sticker shows no face to replace. */
export async function pasteHead(
	sticker: Buffer,
	head: PreparedHead,
	detector: FaceDetector
): Promise<PasteResult | null> {
	const target = largest(await detector.findFaces(sticker));
	if (!target) return null;
	const meta = await sharp(sticker).metadata();
	const canvas = { width: meta.width ?? 0, height: meta.height ?? 0 };
	const scale = target.width / head.face.width;
	const scaled = {
		width: Math.max(1, Math.round(head.width * scale)),
		height: Math.max(1, Math.round(head.height * scale))
	};
	const left = Math.round(centreX(target) - centreX(head.face) * scale);
	const top = Math.round(centreY(target) - centreY(head.face) * scale);
	const clip = clipToCanvas(left, top, scaled, canvas);
	if (!clip) return null;
	const layer = await sharp(head.rgba, { raw: { width: head.width, height: head.height, channels: 4 } })
		.resize(scaled.width, scaled.height)
		.extract({ left: clip.sourceLeft, top: clip.sourceTop, width: clip.width, height: clip.height })
		.png()
		.toBuffer();
	const png = await encodeWithinLimit(
		sharp(sticker).composite([{ input: layer, left: clip.left, top: clip.top, blend: 'atop' }])
	);
	return { png, target };
}

function keyOutSheetColour(rgba: Buffer, key: Rgb): void {
	const { r, g, b } = key;
	for (let i = 0; i < rgba.length; i += 4) {
		const dr = (rgba[i] ?? 0) - r;
		const dg = (rgba[i + 1] ?? 0) - g;
		const db = (rgba[i + 2] ?? 0) - b;
		const distance = Math.sqrt(dr * dr + dg * dg + db * db);
		const keep = distance <= KEY_LOW ? 0 : distance >= KEY_HIGH ? 1 : (distance - KEY_LOW) / (KEY_HIGH - KEY_LOW);
		rgba[i + 3] = Math.round((rgba[i + 3] ?? 0) * keep);
	}
}

/** Face plus hair room, the same proportions the offline portrait matte uses, feathered. */
async function headEllipse(width: number, height: number, face: FaceBox): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="black"/><ellipse cx="${centreX(face)}" cy="${centreY(face) - face.height * 0.1}" rx="${face.width * 0.74}" ry="${face.height * 0.95}" fill="white"/></svg>`;
	return sharp(Buffer.from(svg))
		.blur(Math.max(1, face.width / 14))
		.extractChannel(0)
		.raw()
		.toBuffer();
}

function clipToCanvas(
	left: number,
	top: number,
	size: { width: number; height: number },
	canvas: { width: number; height: number }
) {
	const x0 = Math.max(0, left);
	const y0 = Math.max(0, top);
	const x1 = Math.min(canvas.width, left + size.width);
	const y1 = Math.min(canvas.height, top + size.height);
	if (x1 <= x0 || y1 <= y0) return null;
	return { left: x0, top: y0, sourceLeft: x0 - left, sourceTop: y0 - top, width: x1 - x0, height: y1 - y0 };
}

/** Telegram's 512 KB cap: a photo-like head can make a PNG larger, so fall back to a palette PNG. */
async function encodeWithinLimit(image: Sharp): Promise<Buffer> {
	const full = await image.clone().png({ compressionLevel: 9 }).toBuffer();
	if (full.length <= MAX_STICKER_BYTES) return full;
	return image.png({ palette: true, colours: 256, compressionLevel: 9 }).toBuffer();
}

function largest(faces: FaceBox[]): FaceBox | undefined {
	return [...faces].sort((a, b) => b.width * b.height - a.width * a.height)[0];
}

const centreX = (f: FaceBox) => f.x + f.width / 2;
const centreY = (f: FaceBox) => f.y + f.height / 2;
