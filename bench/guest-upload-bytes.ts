import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { CAPTURE_MAX_SIDE, CAPTURE_QUALITY } from '../src/lib/components/kiosk/capture.ts';

/**
 * Bytes uploaded per selfie. The kiosk shrinks the camera frame in the browser before sending it
 * (src/lib/components/kiosk/capture.ts: longest side ≤ CAPTURE_MAX_SIDE, JPEG at CAPTURE_QUALITY).
 * Measured in Chromium's own canvas encoder on a 12-megapixel, sensor-noisy frame, against the
 * baseline of sending that frame as the camera's full-size JPEG. Target: ≤ 700 KB per selfie.
 *   node --import tsx bench/guest-upload-bytes.ts
 */
async function cameraFrame(width: number, height: number): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g"><stop offset="0" stop-color="#f4d3b5"/><stop offset="1" stop-color="#3e5f7d"/></radialGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height * 0.4}" r="${height * 0.22}" fill="#eabf98"/><rect x="${width * 0.3}" y="${height * 0.65}" width="${width * 0.4}" height="${height * 0.35}" rx="40" fill="#2d3e50"/></svg>`;
	const base = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
	return sharp(base.data, { raw: base.info })
		.composite([
			{
				input: {
					create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 0, sigma: 10 } }
				},
				blend: 'overlay'
			}
		])
		.jpeg({ quality: 92 })
		.toBuffer();
}

const sizes: [number, number][] = [
	[4000, 3000],
	[1920, 1080],
	[1280, 960]
];
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu']
});
try {
	const page = await browser.newPage();
	await page.setContent('<!doctype html><title>bench</title>');
	for (const [width, height] of sizes) {
		const frame = await cameraFrame(width, height);
		const uploaded = await page.evaluate(
			async ({ dataUrl, maxSide, quality }) => {
				const image = new Image();
				image.src = dataUrl;
				await image.decode();
				const scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight));
				const canvas = document.createElement('canvas');
				canvas.width = Math.round(image.naturalWidth * scale);
				canvas.height = Math.round(image.naturalHeight * scale);
				const context = canvas.getContext('2d')!;
				context.translate(canvas.width, 0);
				context.scale(-1, 1);
				context.drawImage(image, 0, 0, canvas.width, canvas.height);
				const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', quality));
				return { bytes: blob.size, width: canvas.width, height: canvas.height };
			},
			{
				dataUrl: `data:image/jpeg;base64,${frame.toString('base64')}`,
				maxSide: CAPTURE_MAX_SIDE,
				quality: CAPTURE_QUALITY
			}
		);
		const kb = uploaded.bytes / 1024;
		console.log(
			`${width}×${height} frame: full-size JPEG ${(frame.length / 1024).toFixed(0)} KB → kiosk upload ${uploaded.width}×${uploaded.height}, ${kb.toFixed(0)} KB ` +
				`(${((uploaded.bytes / frame.length) * 100).toFixed(0)}% of the baseline; target ≤ 700 KB ${kb <= 700 ? '✓' : '✗'})`
		);
	}
} finally {
	await browser.close();
}
