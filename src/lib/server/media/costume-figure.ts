import sharp, { type OverlayOptions } from 'sharp';
import type { OutfitFigure, OutfitPalette } from '../../schemas/outfit.ts';
import { ART_FACE, ART_SIZE, costumeSvgParts } from '../outfits/outfit-art.ts';
import type { FaceBox } from './face-detector.ts';
import { cutPortrait } from './matte.ts';
import type { StyleRecipe } from './sticker-style.ts';

/**
 * The guest in the outfit, offline: the costume's art (outfits/outfit-art.ts, recoloured with the
 * outfit's palette) with the guest's own head cut from the selfie put where the art's face is, and
 * the headwear drawn over the hair. Nothing covers the face, so it stays the guest's.
 */
export interface CostumeInput {
	selfie: Buffer;
	face: FaceBox;
	recipe: StyleRecipe;
	figure: OutfitFigure;
	palette: OutfitPalette;
	/** Canvas side in pixels; the figure stands on a line at `baseline` × size. */
	size: number;
	baseline: number;
	/** The art's width as a share of the canvas. */
	scale: number;
}

/** The head is cut a little closer than a sticker portrait: face and hair, a short neck. */
const HEAD_ZOOM = 1.25;

export async function drawCostumedFigure(input: CostumeInput): Promise<Buffer> {
	const { size } = input;
	const k = (size * input.scale) / ART_SIZE;
	const artSide = Math.round(ART_SIZE * k);
	const artLeft = Math.round((size - artSide) / 2);
	const artTop = Math.round(size * input.baseline - artSide);
	const parts = costumeSvgParts(input.figure, input.palette);
	const art = (body: string) =>
		Buffer.from(
			`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><g transform="translate(${artLeft} ${artTop}) scale(${k})">${body}</g></svg>`
		);
	const head = await placedHead(input, k, artLeft, artTop);
	return sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
		.composite([{ input: art(parts.behind) }, head, { input: art(parts.headwear) }])
		.png()
		.toBuffer();
}

/** The guest's head sized so its face is as wide as the art's face, centred on it. */
async function placedHead(input: CostumeInput, k: number, artLeft: number, artTop: number): Promise<OverlayOptions> {
	const targetFace = ART_FACE.width * k;
	let portrait = await cutPortrait(
		input.selfie,
		input.face,
		input.recipe,
		HEAD_ZOOM,
		Math.round((targetFace * 2.4) / HEAD_ZOOM),
		{ shoulders: false }
	);
	let png = portrait.png;
	const ratio = targetFace / portrait.faceWidth;
	if (Math.abs(ratio - 1) > 0.05) {
		// A face large in the selfie leaves less photo around it than asked: scale to the art's face.
		const width = Math.max(1, Math.round(portrait.width * ratio));
		const height = Math.max(1, Math.round(portrait.height * ratio));
		png = await sharp(png).resize(width, height).png().toBuffer();
		portrait = {
			...portrait,
			width,
			height,
			faceX: portrait.faceX * ratio,
			faceY: portrait.faceY * ratio,
			faceWidth: targetFace
		};
	}
	const left = Math.round(artLeft + ART_FACE.cx * k - portrait.faceX);
	const top = Math.round(artTop + ART_FACE.cy * k - portrait.faceY);
	return fitted(png, portrait.width, portrait.height, left, top, input.size);
}

/** sharp refuses overlays reaching past the canvas: cut the head to what lies inside it. */
async function fitted(
	png: Buffer,
	width: number,
	height: number,
	left: number,
	top: number,
	size: number
): Promise<OverlayOptions> {
	const x0 = Math.max(0, left);
	const y0 = Math.max(0, top);
	const x1 = Math.min(size, left + width);
	const y1 = Math.min(size, top + height);
	if (x0 === left && y0 === top && x1 === left + width && y1 === top + height) return { input: png, left, top };
	const part = await sharp(png)
		.extract({ left: x0 - left, top: y0 - top, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) })
		.png()
		.toBuffer();
	return { input: part, left: x0, top: y0 };
}
