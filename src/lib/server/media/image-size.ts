import sharp from 'sharp';

/**
 * The pixel size of a drawn image, read from its header (no decode): what a provider really sent
 * back, which is what api_usage records and what the pipeline checks before cutting anything.
 */
export interface ImageSize {
	width: number;
	height: number;
	format: string;
}

export async function readImageSize(image: Buffer): Promise<ImageSize> {
	const meta = await sharp(image).metadata();
	return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? 'unknown' };
}

export function resolutionOf(size: { width: number; height: number }): string {
	return `${size.width}x${size.height}`;
}
