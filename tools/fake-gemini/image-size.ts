/**
 * What size of image the fake answers, as the image-generation guide describes the API:
 * `imageConfig.imageSize` is "1K" (the default when none is asked), "2K" or "4K" (uppercase K;
 * "512" on the flash image model), `imageConfig.aspectRatio` one of the listed ratios; with no
 * ratio the model picks one from the reference images. The pixel tables published for the image
 * models differ by model and by a few pixels, so the fake keeps their shape: about (1024·k)² pixels
 * for size k, sides in multiples of 16 (1K at 3:2 is 1248×832, 2K at 3:2 is 2512×1680).
 */
export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
const BASE_SIDE: Record<string, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };
/** Image output tokens per image size, as the price list's per-image figures at $60 per million work out. */
export const IMAGE_TOKENS: Record<string, number> = { '512': 747, '1K': 1120, '2K': 1680, '4K': 2520 };

export interface ImageAsk {
	imageSize?: string;
	aspectRatio?: string;
}

export interface ImageDimensions {
	width: number;
	height: number;
	imageSize: string;
	aspectRatio: string;
}

/** Why an imageConfig would be refused (400 INVALID_ARGUMENT), or null when it is fine. */
export function invalidImageConfig(ask: ImageAsk): string | null {
	if (ask.imageSize !== undefined && !(ask.imageSize in BASE_SIDE))
		return `Invalid image size "${ask.imageSize}". Supported values are 512, 1K, 2K, 4K.`;
	if (ask.aspectRatio !== undefined && !(ASPECT_RATIOS as readonly string[]).includes(ask.aspectRatio))
		return `Invalid aspect ratio "${ask.aspectRatio}". Supported values are ${ASPECT_RATIOS.join(', ')}.`;
	return null;
}

export function dimensionsFor(ask: ImageAsk, referenceShape?: { width: number; height: number }): ImageDimensions {
	const imageSize = ask.imageSize ?? '1K';
	const aspectRatio = ask.aspectRatio ?? nearestRatio(referenceShape);
	const [w, h] = aspectRatio.split(':').map(Number) as [number, number];
	const base = BASE_SIDE[imageSize] ?? 1024;
	const unit = Math.sqrt((base * base) / (w * h));
	return { width: roundTo16(unit * w), height: roundTo16(unit * h), imageSize, aspectRatio };
}

/** The listed ratio closest to a reference image's shape (1:1 with no reference). */
function nearestRatio(shape?: { width: number; height: number }): string {
	if (!shape) return '1:1';
	const target = Math.log(shape.width / shape.height);
	let best: string = '1:1';
	for (const ratio of ASPECT_RATIOS) {
		const [w, h] = ratio.split(':').map(Number) as [number, number];
		const [bw, bh] = best.split(':').map(Number) as [number, number];
		if (Math.abs(Math.log(w / h) - target) < Math.abs(Math.log(bw / bh) - target)) best = ratio;
	}
	return best;
}

function roundTo16(value: number): number {
	return Math.max(16, Math.round(value / 16) * 16);
}
