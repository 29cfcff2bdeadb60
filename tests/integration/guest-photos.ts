import sharp from 'sharp';

/** Test photos made on the spot with sharp (nothing binary is committed). */
export async function selfieJpeg(width = 1280, height = 960, withGps = false): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#8ecae6"/>
<circle cx="${width / 2}" cy="${height * 0.35}" r="${Math.min(width, height) / 5}" fill="#f3c7a1"/></svg>`;
	let image = sharp(Buffer.from(svg)).jpeg({ quality: 85 });
	if (withGps) {
		// As a phone writes it: rotated 90° (orientation 6), camera make, GPS position.
		image = image.withMetadata({ orientation: 6 }).withExifMerge({
			IFD0: { Make: 'TestPhone', Model: 'GPS-1' },
			IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '41/1 18/1 3230/100', GPSLongitudeRef: 'E', GPSLongitude: '69/1 16/1 4366/100' }
		});
	}
	return image.toBuffer();
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
