import sharp, { type OverlayOptions } from 'sharp';
import { drawFigureArt } from './figure-art.ts';
import { between, type Random } from './seeded.ts';

/**
 * A sheet the way an image model really draws one, for the cutter to prove itself on: the
 * background only near the asked colour (a shifted tone, a soft gradient, per-channel noise),
 * figures off the centre of their cells by up to 10 % of a cell, each caption touching its figure
 * or a few pixels apart, and — when asked — one figure too many (four in the first row) or too few.
 * Returns where every figure and caption went, so tests know the right answer.
 */
export interface Rgb {
	r: number;
	g: number;
	b: number;
}

export interface SheetArtInput {
	cols: number;
	rows: number;
	width: number;
	height: number;
	background: Rgb;
	/** One per figure (repeated when short); omitted, figures are drawn without a caption plate (an anchor). */
	captions?: string[];
	face: Buffer;
	random: Random;
	/** Figures drawn relative to cols × rows: -1 leaves the last cell empty, +1 squeezes one more into the first row. */
	countOffset?: -1 | 0 | 1;
	/** With countOffset -1: the cell left empty (0-based, reading order) instead of the last. */
	emptyCell?: number;
	format?: 'png' | 'jpeg';
}

export interface PlacedFigure {
	box: { x: number; y: number; width: number; height: number };
	caption: { x: number; y: number; width: number; height: number } | null;
}

export interface SheetArt {
	image: Buffer;
	mimeType: 'image/png' | 'image/jpeg';
	figures: PlacedFigure[];
}

export async function drawSheetArt(input: SheetArtInput): Promise<SheetArt> {
	const { cols, rows, width, height, random } = input;
	const count = cols * rows + (input.countOffset ?? 0);
	const layers: OverlayOptions[] = [];
	const figures: PlacedFigure[] = [];
	const skip = input.countOffset === -1 && input.emptyCell !== undefined ? input.emptyCell : undefined;
	for (let drawn = 0; drawn < count; drawn++) {
		// A chosen empty cell: the figures after it keep their own cells (and captions).
		const i = skip !== undefined && drawn >= skip ? drawn + 1 : drawn;
		const rowCols = input.countOffset === 1 && i <= cols ? cols + 1 : cols;
		const index = input.countOffset === 1 && i > cols ? i - 1 : i;
		const col = input.countOffset === 1 && i <= cols ? i : index % cols;
		const row = input.countOffset === 1 && i <= cols ? 0 : Math.floor(index / cols);
		const cell = { w: width / rowCols, h: height / rows };
		const art = await drawFigureArt({
			face: input.face,
			width: Math.min(cell.w * 0.6, (cell.h * 0.72) / 1.6),
			caption: captionFor(input.captions, i),
			random
		});
		const left = clamp(
			Math.round(col * cell.w + (cell.w - art.width) / 2 + between(random, -0.1, 0.1) * cell.w),
			8,
			width - art.width - 8
		);
		const top = clamp(
			Math.round(row * cell.h + (cell.h - art.height) / 2 + between(random, -0.1, 0.1) * cell.h),
			8,
			height - art.height - 8
		);
		layers.push({ input: art.png, left, top });
		figures.push({
			box: { x: left, y: top, width: art.width, height: art.height },
			caption: art.caption && { ...art.caption, x: art.caption.x + left, y: art.caption.y + top }
		});
	}
	const canvas = sharp(paintBackground(width, height, input.background, random), {
		raw: { width, height, channels: 3 }
	}).composite(layers);
	const jpeg = input.format === 'jpeg';
	const image = await (jpeg ? canvas.jpeg({ quality: 88 }) : canvas.png({ compressionLevel: 2 })).toBuffer();
	return { image, mimeType: jpeg ? 'image/jpeg' : 'image/png', figures };
}

/**
 * The asked colour as a model paints it: shifted by up to 8 per channel, a gradient of up to ±10
 * per channel across the sheet, and ±4 of noise on every channel of every pixel.
 */
export function paintBackground(width: number, height: number, asked: Rgb, random: Random): Buffer {
	const base = [asked.r, asked.g, asked.b].map((v) => v + between(random, -8, 8));
	const slopeX = base.map(() => between(random, -10, 10));
	const slopeY = base.map(() => between(random, -10, 10));
	const noise = new Int8Array(65536);
	for (let i = 0; i < noise.length; i++) noise[i] = Math.round(between(random, -4, 4));
	// Each pixel is base + slopeX·fx·2 + slopeY·fy·2 + noise, summed in that order. The first two
	// terms are the same on every row, so they are summed once per column; each row then adds its
	// own term and the noise — the same sums, so the same bytes, in a fraction of the time (the
	// fake paints a 2512×1680 sheet per call). The clamped view keeps each value within 0–255.
	const across = new Float64Array(width * 3);
	for (let x = 0, i = 0; x < width; x++) {
		const fx = x / width - 0.5;
		for (let c = 0; c < 3; c++, i++) across[i] = base[c]! + slopeX[c]! * fx * 2;
	}
	const rgb = Buffer.alloc(width * height * 3);
	const out = new Uint8ClampedArray(rgb.buffer, rgb.byteOffset, rgb.length);
	for (let y = 0, o = 0, n = 0; y < height; y++) {
		const fy = y / height - 0.5;
		const down = [slopeY[0]! * fy * 2, slopeY[1]! * fy * 2, slopeY[2]! * fy * 2] as const;
		for (let i = 0; i < across.length; i += 3, o += 3) {
			out[o] = Math.round(across[i]! + down[0] + noise[n]!);
			n = (n + 7919) & 65535;
			out[o + 1] = Math.round(across[i + 1]! + down[1] + noise[n]!);
			n = (n + 7919) & 65535;
			out[o + 2] = Math.round(across[i + 2]! + down[2] + noise[n]!);
			n = (n + 7919) & 65535;
		}
	}
	return rgb;
}

function captionFor(captions: string[] | undefined, i: number): string | undefined {
	if (!captions) return undefined;
	return captions[i % Math.max(1, captions.length)] ?? 'hi!';
}

function clamp(v: number, low: number, high: number): number {
	return v < low ? low : v > high ? high : v;
}
