import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A realistic kiosk selfie for tests and benchmarks, made from a photo that ships inside
 * @vladmandic/human (assets/screenshot-faceid.jpg: one real face). The face is placed in the upper
 * middle of a 3:4 frame over a blurred backdrop, as a tablet camera at a kiosk sees a guest.
 */
const require = createRequire(import.meta.url);
const HUMAN_DIR = path.dirname(path.dirname(require.resolve('@vladmandic/human')));
const SOURCE = path.join(HUMAN_DIR, 'assets', 'screenshot-faceid.jpg');

export async function makeSelfie(width = 900): Promise<Buffer> {
	const height = Math.round((width * 4) / 3);
	const side = Math.round(width * 0.62);
	return sharp(await blurredBackdrop(width, height))
		.composite([
			{ input: await featheredFace(side), left: Math.round((width - side) / 2), top: Math.round(height * 0.16) }
		])
		.jpeg({ quality: 90 })
		.toBuffer();
}

const faceSource = () => sharp(SOURCE).extract({ left: 13, top: 142, width: 142, height: 140 });

/** The one real face, `side` px square, its edge faded out so it sits on any backdrop (PNG with alpha). */
export async function featheredFace(side: number): Promise<Buffer> {
	const person = await faceSource().resize(side, side).png().toBuffer();
	const fade = Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect x="${side * 0.06}" y="${side * 0.04}" width="${side * 0.88}" height="${side * 1.2}" rx="${side * 0.2}" fill="white"/></svg>`
	);
	const mask = await sharp(fade)
		.blur(side / 25)
		.extractChannel(0)
		.raw()
		.toBuffer();
	const rgb = await sharp(person).removeAlpha().raw().toBuffer();
	return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
		.joinChannel(mask, { raw: { width: side, height: side, channels: 1 } })
		.png()
		.toBuffer();
}

/** The same photo blurred beyond recognition, so colours match and no second face appears (PNG). */
export function blurredBackdrop(width: number, height: number): Promise<Buffer> {
	return faceSource().resize(width, height, { fit: 'fill' }).blur(60).modulate({ brightness: 1.15 }).png().toBuffer();
}

/** A face crop as the guest flow saves it next to the selfie. */
export async function makeFaceCrop(selfie: Buffer): Promise<Buffer> {
	const meta = await sharp(selfie).metadata();
	const w = meta.width ?? 900;
	return sharp(selfie)
		.extract({
			left: Math.round(w * 0.19),
			top: Math.round(w * 0.27),
			width: Math.round(w * 0.62),
			height: Math.round(w * 0.62)
		})
		.resize(512)
		.jpeg()
		.toBuffer();
}
