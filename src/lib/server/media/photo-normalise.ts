import sharp from 'sharp';
import { MAX_UPLOAD_BYTES, type PhotoProblem } from './photo-rules.ts';
import { errorText } from '../errors/error-text.ts';

/**
 * The one bounded piece of image work a guest's upload needs before its answer (all other image work is the
 * worker's; it runs in the upload checker process, upload-checker/): check that an uploaded
 * selfie really is a photo, then make a clean copy. Content is sniffed from its bytes — never the
 * file name or Content-Type — and decoded with a pixel limit far below sharp's 268 MP default, so a
 * decompression bomb is refused from its header before any pixel is decoded.
 */
export { MAX_UPLOAD_BYTES };
export const MAX_INPUT_PIXELS = 40_000_000;
export const MAX_SIDE = 2048;

export type PhotoFormat = 'jpeg' | 'png' | 'webp';

export class PhotoRejected extends Error {
	constructor(
		readonly problem: PhotoProblem,
		detail: string
	) {
		super(detail);
		this.name = 'PhotoRejected';
	}
}

/** Magic bytes of the formats a kiosk camera produces. SVG, text and everything else: null. */
export function sniffPhotoFormat(bytes: Uint8Array): PhotoFormat | null {
	const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
	if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
	return null;
}

export interface NormalisedPhoto {
	selfie: Buffer;
	width: number;
	height: number;
}

const decodeOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated' as const, sequentialRead: true };

/**
 * The checks made before any pixel is decoded: a JPEG, PNG or WebP by its bytes, a header the
 * decoder reads as the same format, and at most `maxPixels`. Only the header is read (metadata
 * decodes no pixels), so an oversized image is named as such; the decode that follows is what the
 * pixel limit protects.
 */
export async function checkPhotoHeader(
	bytes: Buffer,
	maxPixels: number
): Promise<{ format: PhotoFormat; width: number; height: number }> {
	const format = sniffPhotoFormat(bytes);
	if (!format) throw new PhotoRejected('not_an_image', 'content is not a JPEG, PNG or WebP image');
	const meta = await sharp(bytes, { limitInputPixels: false })
		.metadata()
		.catch(() => {
			throw new PhotoRejected('damaged', 'image header cannot be read');
		});
	if (meta.format !== format)
		throw new PhotoRejected('unsupported', `content says ${format}, decoder says ${meta.format}`);
	if (!meta.width || !meta.height) throw new PhotoRejected('damaged', 'image has no size');
	if (meta.width * meta.height > maxPixels)
		throw new PhotoRejected('too_many_pixels', `${meta.width}×${meta.height} is above the pixel limit`);
	return { format, width: meta.width, height: meta.height };
}

/**
 * Validates and normalises: auto-rotated by EXIF, every metadata block dropped (sharp writes none
 * unless asked), longest side ≤ 2048 px, JPEG. Whether it shows a usable face is face-check.ts's
 * question, asked of this copy.
 */
export async function normalisePhoto(bytes: Buffer): Promise<NormalisedPhoto> {
	await checkPhotoHeader(bytes, MAX_INPUT_PIXELS);
	try {
		const { data, info } = await sharp(bytes, decodeOptions)
			.rotate()
			.resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
			.jpeg({ quality: 88, mozjpeg: false })
			.toBuffer({ resolveWithObject: true });
		return { selfie: data, width: info.width, height: info.height };
	} catch (error) {
		throw new PhotoRejected('damaged', `image cannot be decoded: ${errorText(error, 120)}`);
	}
}
