import sharp, { type OverlayOptions } from 'sharp';
import { blurredBackdrop, featheredFace } from './generation-selfie.ts';

/**
 * Test photos made on the spot with sharp (nothing binary is committed). Faces are the one real
 * face shipped with the face detector's package, placed where each test needs them.
 */
export interface PlacedFace {
	/** Side of the face's square, px (the detector's tight face box is about 0.6 of it). */
	side: number;
	/** Centre of the square, px; may lie near or past the edge to cut the face off. */
	cx: number;
	cy: number;
	/** Mirrored, so two faces in one photo are not pixel copies. */
	mirrored?: boolean;
}

export async function photoWithFaces(width: number, height: number, faces: PlacedFace[]): Promise<Buffer> {
	const layers = await Promise.all(faces.map(async (face) => placeFace(face, width, height)));
	// Blurred small and enlarged: the same soft backdrop, without a full-size blur's seconds of work.
	const backdrop = await sharp(await blurredBackdrop(Math.ceil(width / 8), Math.ceil(height / 8)))
		.resize(width, height, { fit: 'fill' })
		.toBuffer();
	return sharp(backdrop).composite(layers).jpeg({ quality: 88 }).toBuffer();
}

/** A face layer clipped to the frame (sharp composites only what lies inside the base image). */
async function placeFace(face: PlacedFace, width: number, height: number): Promise<OverlayOptions> {
	const side = Math.round(face.side);
	let image = await featheredFace(side);
	if (face.mirrored) image = await sharp(image).flop().png().toBuffer();
	const left = Math.round(face.cx - side / 2);
	const top = Math.round(face.cy - side / 2);
	const visible = { left: Math.max(0, -left), top: Math.max(0, -top) };
	const cropWidth = Math.min(side - visible.left, width - Math.max(0, left));
	const cropHeight = Math.min(side - visible.top, height - Math.max(0, top));
	const input = await sharp(image)
		.extract({ ...visible, width: cropWidth, height: cropHeight })
		.png()
		.toBuffer();
	return { input, left: Math.max(0, left), top: Math.max(0, top) };
}

/** A kiosk selfie: one face, big, in the upper middle of the frame. */
export async function selfieJpeg(width = 1280, height = 960, withGps = false): Promise<Buffer> {
	// With GPS the photo is stored as a phone does it: sideways with orientation 6 ("turn 90°
	// clockwise to show"), so the face is upright only once the orientation is applied.
	const [w, h] = withGps ? [height, width] : [width, height];
	const upright = await photoWithFaces(w, h, [{ side: Math.round(Math.min(w, h) * 0.55), cx: w / 2, cy: h * 0.42 }]);
	if (!withGps) return upright;
	return sharp(upright)
		.rotate(270)
		.jpeg({ quality: 85 })
		.withMetadata({ orientation: 6 })
		.withExifMerge({
			IFD0: { Make: 'TestPhone', Model: 'GPS-1' },
			IFD3: {
				GPSLatitudeRef: 'N',
				GPSLatitude: '41/1 18/1 3230/100',
				GPSLongitudeRef: 'E',
				GPSLongitude: '69/1 16/1 4366/100'
			}
		})
		.toBuffer();
}

/** Photos the kiosk's face check refuses, each with the problem it names (1280×960 unless said). */
export async function photosWithoutUsableFace(
	width = 1280,
	height = 960
): Promise<{ label: string; photo: Buffer; problem: string }[]> {
	const short = Math.min(width, height);
	return [
		{
			label: 'a flat colour',
			photo: await sharp({ create: { width, height, channels: 3, background: '#c96' } })
				.jpeg()
				.toBuffer(),
			problem: 'no_face'
		},
		{
			label: 'a 1×1 image',
			photo: await sharp({ create: { width: 1, height: 1, channels: 3, background: '#c96' } })
				.jpeg()
				.toBuffer(),
			problem: 'no_face'
		},
		{ label: 'a brick wall', photo: await brickWall(width, height), problem: 'no_face' },
		{
			label: 'two faces side by side',
			photo: await photoWithFaces(width, height, [
				{ side: short * 0.45, cx: width * 0.3, cy: height * 0.45 },
				{ side: short * 0.45, cx: width * 0.7, cy: height * 0.45, mirrored: true }
			]),
			problem: 'several_faces'
		},
		{
			label: 'a tiny face (guest far away)',
			photo: await photoWithFaces(width, height, [{ side: short * 0.12, cx: width / 2, cy: height * 0.4 }]),
			problem: 'face_too_small'
		},
		{
			label: 'a face cut off at the left edge',
			photo: await photoWithFaces(width, height, [{ side: short * 0.5, cx: width * 0.04, cy: height * 0.45 }]),
			problem: 'face_cut_off'
		}
	];
}

/** Brick rows with mortar and sensor noise: texture everywhere, nothing face-like. */
async function brickWall(width: number, height: number): Promise<Buffer> {
	const bricks: string[] = [];
	for (let row = 0; row * 40 < height; row++) {
		for (let col = 0; col * 100 < width + 100; col++) {
			const red = (0xa0 + ((row * 7 + col * 13) % 30)).toString(16);
			bricks.push(
				`<rect x="${col * 100 - (row % 2) * 50}" y="${row * 40}" width="94" height="34" fill="#${red}5a48"/>`
			);
		}
	}
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#c8c0b4"/>${bricks.join('')}</svg>`;
	const noise = {
		create: {
			width,
			height,
			channels: 3 as const,
			background: '#808080',
			noise: { type: 'gaussian' as const, mean: 0, sigma: 18 }
		}
	};
	return sharp(Buffer.from(svg))
		.composite([{ input: noise, blend: 'overlay' }])
		.jpeg()
		.toBuffer();
}

export function streamOf(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
	let offset = 0;
	return new ReadableStream({
		pull(controller) {
			if (offset >= bytes.length) return controller.close();
			controller.enqueue(bytes.subarray(offset, offset + chunk));
			offset += chunk;
		}
	});
}
