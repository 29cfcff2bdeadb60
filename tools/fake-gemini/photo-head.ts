import sharp from 'sharp';

/**
 * The guest's face as the fake "model" sees it, with no face finder of its own: photos (JPEG) come
 * first; a square photo is already a face crop, a portrait photo is a kiosk selfie with the face in
 * its upper middle (the square the guest flow saves as the face crop). Without a photo the fake
 * draws from the first image it was given (an anchor it drew itself keeps the head in that same
 * upper-middle square). Returns a square RGB PNG of the face region.
 */
export async function faceOf(references: Buffer[]): Promise<Buffer> {
	const source = references.find(isJpeg) ?? references[0];
	if (!source) throw new Error('no reference image in the request');
	const { width = 0, height = 0 } = await sharp(source).metadata();
	const square = Math.abs(width - height) <= Math.max(width, height) * 0.05;
	const side = Math.round(square ? Math.min(width, height) * 0.9 : width * 0.62);
	const left = Math.round((width - side) / 2);
	const top = square ? Math.round((height - side) / 2) : Math.min(Math.round(width * 0.27), Math.max(0, height - side));
	return sharp(source).extract({ left, top, width: side, height: side }).removeAlpha().png().toBuffer();
}

export function isJpeg(image: Buffer): boolean {
	return image[0] === 0xff && image[1] === 0xd8;
}

/** The face as a round-ish head of `diameter` px: an ellipse of the photo with a dark ink ring, transparent around it. */
export async function headLayer(face: Buffer, diameter: number): Promise<Buffer> {
	const d = Math.max(8, Math.round(diameter));
	const rx = d * 0.42;
	const ry = d * 0.49;
	const mask = Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${d}" height="${d}"><ellipse cx="${d / 2}" cy="${d / 2}" rx="${rx}" ry="${ry}" fill="#fff"/></svg>`
	);
	const ring = Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${d}" height="${d}"><ellipse cx="${d / 2}" cy="${d / 2}" rx="${rx}" ry="${ry}" fill="none" stroke="#2a1a14" stroke-width="${Math.max(2, d * 0.025)}"/></svg>`
	);
	const alpha = await sharp(mask).extractChannel(0).raw().toBuffer();
	const photo = await sharp(face).resize(d, d).removeAlpha().raw().toBuffer();
	const masked = await sharp(photo, { raw: { width: d, height: d, channels: 3 } })
		.joinChannel(alpha, { raw: { width: d, height: d, channels: 1 } })
		.png()
		.toBuffer();
	return sharp(masked)
		.composite([{ input: ring }])
		.png()
		.toBuffer();
}
