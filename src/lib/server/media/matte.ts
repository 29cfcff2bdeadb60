import sharp, { type Region } from 'sharp';
import type { FaceBox } from './face-detector.ts';
import type { StyleRecipe } from './sticker-style.ts';

/**
 * The guest's head and shoulders cut out of the selfie with a feathered ellipse matte.
 *
 * Why not a person-segmentation model: human's selfie-segmentation model is not shipped in
 * node_modules/@vladmandic/human/models, the `rvm` model is GPL-3.0 and `meet` is broken, and the
 * best matting model tried (ISNet) is AGPL-3.0 and needs ~2 GB per image. A head-and-shoulders
 * ellipse placed from the detected face box is deterministic, costs ~10 ms, never leaves stray
 * background blobs and reads as a deliberate "badge portrait" style on a sticker — the badge
 * drawn behind it hides that the shoulders end in a soft curve rather than a traced outline.
 */
export interface Portrait {
	png: Buffer;
	width: number;
	height: number;
	/** Face centre inside the portrait, for placing decorations. */
	faceX: number;
	faceY: number;
	faceWidth: number;
}

/**
 * Cuts already made, per selfie buffer, for as long as that buffer lives (a job's brief holds it).
 * A pack draws the same head into every figure at one width per variant zoom (12 figures, 4
 * widths), and the cut — posterise, ink lines, matte — is over half of a figure's CPU. The same
 * arguments give the same pixels, so a kept cut is exactly the one a new cut would make.
 */
const cutsBySelfie = new WeakMap<Buffer, Map<string, Promise<Portrait>>>();

/** `shoulders: false` cuts the head and a short neck only, for putting into a drawn costume. */
export function cutPortrait(...args: Parameters<typeof drawPortrait>): Promise<Portrait> {
	const [selfie, face, recipe, zoom, width, options] = args;
	const key = JSON.stringify([face, recipe, zoom, width, options?.shoulders ?? true]);
	let cuts = cutsBySelfie.get(selfie);
	if (!cuts) cutsBySelfie.set(selfie, (cuts = new Map()));
	const known = cuts.get(key);
	if (known) return known;
	const cut = drawPortrait(...args);
	cuts.set(key, cut);
	// A failed cut is not kept: the next figure tries again (and fails the same way, on its own).
	cut.catch(() => cuts.delete(key));
	return cut;
}

async function drawPortrait(
	selfie: Buffer,
	face: FaceBox,
	recipe: StyleRecipe,
	zoom: number,
	width: number,
	options: { shoulders?: boolean } = {}
): Promise<Portrait> {
	const meta = await sharp(selfie).metadata();
	const imgW = meta.width ?? 1;
	const imgH = meta.height ?? 1;
	const cx = face.x + face.width / 2;
	const regionW = Math.min(imgW, (face.width * 2.4) / zoom);
	const regionH = Math.min(imgH, regionW * 1.12);
	const left = clamp(Math.round(cx - regionW / 2), 0, imgW - Math.round(regionW));
	const top = clamp(Math.round(face.y - face.height * (0.55 / zoom)), 0, imgH - Math.round(regionH));
	const scale = width / regionW;
	const height = Math.round(regionH * scale);
	const styled = await stylise(
		selfie,
		{ left, top, width: Math.round(regionW), height: Math.round(regionH) },
		width,
		height,
		recipe
	);
	const faceX = (cx - left) * scale;
	const faceY = (face.y + face.height / 2 - top) * scale;
	const faceWidth = face.width * scale;
	const mask = await portraitMask(width, height, faceX, faceY, faceWidth, options.shoulders ?? true);
	return { png: await withAlpha(styled, mask, width, height), width, height, faceX, faceY, faceWidth };
}

/** Posterise + smooth + ink lines: the sticker look, made with sharp alone. */
async function stylise(
	selfie: Buffer,
	region: Region,
	width: number,
	height: number,
	recipe: StyleRecipe
): Promise<Buffer> {
	const base = sharp(selfie)
		.rotate()
		.extract(region)
		.resize(width, height)
		.median(recipe.smooth)
		.modulate({ saturation: recipe.saturation, brightness: recipe.brightness });
	const flat = await base.clone().png({ palette: true, colours: recipe.colours, dither: 0 }).toBuffer();
	if (recipe.ink <= 0) return sharp(flat).removeAlpha().png().toBuffer();
	const edges = await base
		.clone()
		.greyscale()
		.blur(1.2)
		.convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] })
		.threshold(Math.round(34 / recipe.ink))
		.negate()
		.blur(0.6)
		.png()
		.toBuffer();
	return sharp(flat)
		.removeAlpha()
		.composite([{ input: edges, blend: 'multiply' }])
		.png()
		.toBuffer();
}

/**
 * Head ellipse (with hair room) joined to a shoulder ellipse, feathered so the edge is soft. Without
 * shoulders the neck stops about two thirds of a face below the face centre, where a costume's
 * collar begins.
 */
function portraitMask(
	width: number,
	height: number,
	faceX: number,
	faceY: number,
	faceWidth: number,
	shoulders: boolean
): Promise<Buffer> {
	const headRx = faceWidth * 0.78;
	const headRy = faceWidth * 1.0;
	const neck = shoulders ? height : faceWidth * 0.66;
	const body = shoulders
		? `<ellipse cx="${width / 2}" cy="${height * 1.02}" rx="${width * 0.5}" ry="${height * 0.36}" fill="white"/>`
		: '';
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="black"/>
<ellipse cx="${faceX}" cy="${faceY - faceWidth * 0.08}" rx="${headRx}" ry="${headRy}" fill="white"/>
${body}
<rect x="${faceX - faceWidth * 0.32}" y="${faceY}" width="${faceWidth * 0.64}" height="${neck}" fill="white"/>
</svg>`;
	return sharp(Buffer.from(svg))
		.blur(Math.max(1, width / 90))
		.greyscale()
		.extractChannel(0)
		.png()
		.toBuffer();
}

async function withAlpha(styled: Buffer, mask: Buffer, width: number, height: number): Promise<Buffer> {
	const rgb = await sharp(styled).removeAlpha().raw().toBuffer();
	const alpha = await sharp(mask).resize(width, height).extractChannel(0).raw().toBuffer();
	return sharp(rgb, { raw: { width, height, channels: 3 } })
		.joinChannel(alpha, { raw: { width, height, channels: 1 } })
		.png()
		.toBuffer();
}

function clamp(v: number, lo: number, hi: number): number {
	return Math.max(lo, Math.min(hi, v));
}
