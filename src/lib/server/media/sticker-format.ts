import sharp, { type Region, type Sharp } from 'sharp';

/**
 * Telegram's static sticker format: PNG (or WEBP), one side exactly 512 px, the other ≤ 512,
 * at most 512 KB, transparent background; a white stroke is what sticker packs are expected to have.
 */
export const STICKER_SIDE = 512;
export const STICKER_MAX_BYTES = 512 * 1024;
/** White outline width, in pixels of the finished 512-px sticker. */
const OUTLINE_PX = 9;
const MARGIN = OUTLINE_PX + 2;

/**
 * Raw RGBA figure (tightly cropped) → finished sticker PNG with a white outline. Three sharp passes
 * (fit, grow the silhouette, encode); the layering and the crop are plain loops over raw bytes,
 * which measured 4× faster than sharp's composite + trim for 512-px images.
 */
export async function finishSticker(rgba: Buffer, width: number, height: number): Promise<{ data: Buffer; width: number; height: number }> {
	// Fit first, leaving room for the outline, so the outline has the same width on every sticker.
	const inner = STICKER_SIDE - 2 * MARGIN;
	const fitted = await sharp(rgba, { raw: { width, height, channels: 4 } })
		.resize({ width: inner, height: inner, fit: 'inside' })
		.extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: { r: 0, g: 0, b: 0, alpha: 0 } })
		.raw()
		.toBuffer({ resolveWithObject: true });
	const w = fitted.info.width;
	const h = fitted.info.height;
	// Grow the silhouette by ~OUTLINE_PX: a Gaussian of σ = width/1.9 falls to 3 % at that distance
	// from an edge. Separable blur is ~8× faster than a 19×19 morphological dilation.
	// One sharp pass: blur the silhouette, then a steep ramp instead of a hard threshold so the
	// outline's edge stays anti-aliased: (v − 4)·32, clamped to 0..255 by sharp's cast back to 8 bits
	// (byte-identical to the JS loop it replaced). sharp keeps only the last blur of a pipeline and
	// runs extractChannel after blur, so the alpha band is taken out by hand.
	const outline = await sharp(alphaBand(fitted.data), { raw: { width: w, height: h, channels: 1 } })
		.blur(OUTLINE_PX / 1.9)
		.linear(32, -128)
		.extractChannel(0) // a one-band raw input comes out as three bands otherwise
		.raw()
		.toBuffer();
	const { data: layered, box } = layerOverWhite(fitted.data, outline, w);
	return encodeWithinLimit(() => sharp(layered, { raw: { width: w, height: h, channels: 4 } }).extract(box));
}

function alphaBand(rgba: Buffer): Buffer {
	const alpha = Buffer.alloc(rgba.length / 4);
	for (let p = 0; p < alpha.length; p++) alpha[p] = rgba[p * 4 + 3]!;
	return alpha;
}

/**
 * Figure "over" a white layer whose alpha is the grown silhouette (Porter-Duff, straight alpha),
 * and the smallest box holding every visible pixel (the transparent margin is cropped away) found
 * in the same pass, so the 1-MB result is walked once.
 */
function layerOverWhite(figure: Buffer, outline: Buffer, width: number): { data: Buffer; box: Region } {
	const out = Buffer.allocUnsafe(figure.length);
	const height = outline.length / width;
	let minX = width, minY = height, maxX = -1, maxY = -1;
	for (let y = 0, p = 0, i = 0; y < height; y++) {
		let rowMin = width, rowMax = -1;
		for (let x = 0; x < width; x++, p++, i += 4) {
			const fa = figure[i + 3]!;
			const wa = outline[p]!;
			let a = fa;
			if (fa === 255 || wa === 0) {
				out[i] = figure[i]!;
				out[i + 1] = figure[i + 1]!;
				out[i + 2] = figure[i + 2]!;
			} else {
				// In 0..255 units: a = fa + wa·(1 − fa); colour = (c·fa + 255·wa·(1 − fa)) / a.
				const white = (wa * (255 - fa)) / 255;
				const sum = fa + white;
				out[i] = ((figure[i]! * fa + 255 * white) / sum) | 0;
				out[i + 1] = ((figure[i + 1]! * fa + 255 * white) / sum) | 0;
				out[i + 2] = ((figure[i + 2]! * fa + 255 * white) / sum) | 0;
				a = sum | 0;
			}
			out[i + 3] = a;
			if (a < 2) continue;
			if (rowMin === width) rowMin = x;
			rowMax = x;
		}
		if (rowMax < 0) continue;
		if (rowMin < minX) minX = rowMin;
		if (rowMax > maxX) maxX = rowMax;
		if (minY === height) minY = y;
		maxY = y;
	}
	const box = maxX < 0 ? { left: 0, top: 0, width, height } : { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
	return { data: out, box };
}

/** Longest side exactly 512; lossless first (zlib level 6: level 9 costs 8× the time for ~5 % smaller files), palette PNG if over 512 KB. */
// A pipeline factory rather than sharp's clone(): clone() structured-clones the options, raw input
// buffer included, which measured as a tenth of the cutter's main-thread time.
async function encodeWithinLimit(image: () => Sharp): Promise<{ data: Buffer; width: number; height: number }> {
	const resized = () => image().resize({ width: STICKER_SIDE, height: STICKER_SIDE, fit: 'inside' });
	let out = await resized().png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
	if (out.data.length > STICKER_MAX_BYTES) out = await resized().png({ palette: true, colours: 256, compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
	if (out.data.length > STICKER_MAX_BYTES) throw new Error(`sticker is ${out.data.length} bytes even as a palette PNG`);
	return { data: out.data, width: out.info.width, height: out.info.height };
}
