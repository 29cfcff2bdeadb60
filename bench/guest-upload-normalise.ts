import sharp from 'sharp';
import { normalisePhoto } from '../src/lib/server/media/photo-normalise.ts';

/**
 * Upload normalisation of a 12-megapixel phone JPEG: our normalisePhoto (sniff, header check,
 * auto-rotate, resize to 2048, JPEG) against a bare sharp rotate+resize+encode of the same bytes,
 * measured in the same run. Target: ≤ 1.3× the bare pipeline. (The face check that follows it at
 * upload is measured in guest-face-check-time.ts.)
 *   node --import tsx bench/guest-upload-normalise.ts
 */
const ROUNDS = 8;

async function makePhoto(): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><defs><linearGradient id="g"><stop offset="0" stop-color="#6d8fb3"/><stop offset="1" stop-color="#e9c9a5"/></linearGradient></defs>
<rect width="4000" height="3000" fill="url(#g)"/><circle cx="2000" cy="1100" r="700" fill="#f1c6a0"/><rect x="1100" y="1900" width="1800" height="1100" rx="300" fill="#34506b"/></svg>`;
	const base = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
	// Sensor-like noise so the JPEG is as heavy as a phone's (~3–5 MB), not a flat drawing.
	const noisy = await sharp(base.data, { raw: base.info })
		.composite([
			{
				input: {
					create: {
						width: 4000,
						height: 3000,
						channels: 3,
						background: '#808080',
						noise: { type: 'gaussian', mean: 0, sigma: 12 }
					}
				},
				blend: 'overlay'
			}
		])
		.jpeg({ quality: 92 })
		.withMetadata({ orientation: 6 })
		.toBuffer();
	return noisy;
}

async function time(run: () => Promise<unknown>): Promise<number[]> {
	await run(); // warm-up
	const samples: number[] = [];
	for (let i = 0; i < ROUNDS; i++) {
		const start = performance.now();
		await run();
		samples.push(performance.now() - start);
	}
	return samples.sort((a, b) => a - b);
}

const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;

const photo = await makePhoto();
const meta = await sharp(photo).metadata();
const bare = await time(() =>
	sharp(photo).rotate().resize(2048, 2048, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 88 }).toBuffer()
);
const ours = await time(() => normalisePhoto(photo));
const ratio = median(ours) / median(bare);
console.log(
	`input: ${meta.width}×${meta.height} JPEG, ${(photo.length / 1e6).toFixed(2)} MB, orientation ${meta.orientation}`
);
console.log(
	`bare sharp rotate+resize+encode: median ${median(bare).toFixed(0)} ms (min ${bare[0]!.toFixed(0)}, max ${bare.at(-1)!.toFixed(0)})`
);
console.log(
	`normalisePhoto (+ checks): median ${median(ours).toFixed(0)} ms (min ${ours[0]!.toFixed(0)}, max ${ours.at(-1)!.toFixed(0)})`
);
console.log(`ratio: ${ratio.toFixed(2)}× the bare pipeline (target ≤ 1.30×) ${ratio <= 1.3 ? '✓' : '✗ over target'}`);
