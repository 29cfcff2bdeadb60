import sharp from 'sharp';
import { checkPhotoHeader, PhotoRejected } from './photo-normalise.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * An outfit's preview picture uploaded in the console, checked like a selfie (a real JPEG, PNG or
 * WebP by its bytes, never its name) but smaller: at most 2 MB and 4 megapixels. The stored copy
 * is a 512×512 PNG, the size of the drawn previews, so the bot's numbered catalogue picture treats
 * both alike; the crop keeps the middle, and no metadata of the original survives. The byte limit
 * is the reader's to keep (the body is never read past it).
 */
export const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;
export const MAX_PREVIEW_PIXELS = 4_000_000;
export const PREVIEW_SIDE = 512;

export async function normalisePreview(bytes: Buffer): Promise<Buffer> {
	await checkPhotoHeader(bytes, MAX_PREVIEW_PIXELS);
	try {
		return await sharp(bytes, { limitInputPixels: MAX_PREVIEW_PIXELS, failOn: 'truncated' })
			.rotate()
			.resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'cover' })
			.png()
			.toBuffer();
	} catch (error) {
		throw new PhotoRejected('damaged', `image cannot be decoded: ${errorText(error, 120)}`);
	}
}
