import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * A real picture of random noise, at least `minBytes` long: noise barely compresses, so the file's
 * size follows its pixel count. JPEG (about 0.8 bytes a pixel at quality 90) or PNG stored
 * uncompressed (3 bytes a pixel). Made in the test, so no large file sits in the repository.
 */
export async function noisePicture(format: 'jpeg' | 'png', minBytes: number): Promise<Buffer> {
	const bytesPerPixel = format === 'jpeg' ? 0.8 : 3;
	let side = Math.ceil(Math.sqrt(minBytes / bytesPerPixel));
	for (;;) {
		const pixels = sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } });
		const picture = await (
			format === 'jpeg' ? pixels.jpeg({ quality: 90 }) : pixels.png({ compressionLevel: 0 })
		).toBuffer();
		if (picture.length >= minBytes) return picture;
		side = Math.ceil(side * 1.05);
	}
}
