import sharp from 'sharp';
import { makeSelfie } from '../tests/integration/generation-selfie.ts';
import { selfieJpeg } from '../tests/integration/guest-photos.ts';

/**
 * A 12-megapixel kiosk selfie as a phone camera writes it: the test selfie (one real face) at
 * 3000×4000 with sensor-like noise, stored sideways with EXIF orientation 6 so normalisation has
 * to turn it upright — a few MB of JPEG, as heavy to decode as the real thing.
 */
export async function phonePhoto(): Promise<Buffer> {
	const upright = await makeSelfie(3000);
	const { width = 3000, height = 4000 } = await sharp(upright).metadata();
	const noise = {
		create: {
			width,
			height,
			channels: 3 as const,
			background: '#808080',
			noise: { type: 'gaussian' as const, mean: 0, sigma: 12 }
		}
	};
	const noisy = await sharp(upright)
		.composite([{ input: noise, blend: 'overlay' }])
		.raw()
		.toBuffer({ resolveWithObject: true });
	// Orientation 6 means "turn 90° clockwise to show": the pixels are stored turned the other way.
	return sharp(noisy.data, { raw: noisy.info })
		.rotate(270)
		.jpeg({ quality: 92 })
		.withMetadata({ orientation: 6 })
		.toBuffer();
}

/** What the kiosk page uploads: the camera frame shrunk in the browser to 1600×1200 (capture.ts). */
export function kioskFrame(): Promise<Buffer> {
	return selfieJpeg(1600, 1200);
}
