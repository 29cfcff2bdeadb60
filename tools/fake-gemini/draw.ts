import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { faceOf, headLayer } from './photo-head.ts';
import { drawSheetArt, paintBackground, type Rgb } from './sheet-art.ts';
import { hashText, seededRandom } from './seeded.ts';

/**
 * What the fake "model" draws for an image request, read from the prompt like a model would: a
 * sheet ("N columns × M rows", one figure per caption), one sticker figure, an anchor (one figure,
 * no caption) or the guest's head alone, on the colour the prompt names — drawn by the fake's own
 * shapes and the reference photo's pixels (sheet-art.ts), never by the product's code.
 */
export type ImageRequestKind = 'anchor' | 'sheet' | 'figure' | 'head';

export interface DrawRequest {
	kind: ImageRequestKind;
	prompt: string;
	references: Buffer[];
	width: number;
	height: number;
	/** Varies the drawing; the same seed draws the same image. */
	seed: number;
	/** Figures on a sheet relative to the grid: one too few, as asked, one too many. */
	countOffset?: -1 | 0 | 1;
	/** With countOffset -1: the cell left empty (0-based, reading order); the last when not given. */
	emptyCell?: number;
	format?: 'png' | 'jpeg';
}

export interface DrawnImage {
	image: Buffer;
	mimeType: 'image/png' | 'image/jpeg';
}

const DEFAULT_SHEET_COLOUR: Rgb = { r: 0, g: 177, b: 64 };

/**
 * The same request always draws the same image, so the fake keeps its last drawings (by everything
 * that decides them: kind, prompt, the references' bytes, size, seed, figure count, empty cell,
 * format) and answers a repeated request with the same bytes instead of painting them again — the
 * files whose every test queues the same first job on a fresh database ask for the same sheets.
 * Only the fake's own work is saved: the product still receives, cuts and checks every image.
 */
const KEPT_DRAWINGS = 16;
const drawings = new Map<string, Promise<DrawnImage>>();

export function drawRequested(request: DrawRequest): Promise<DrawnImage> {
	const key = drawingKey(request);
	let drawing = drawings.get(key);
	if (!drawing) {
		drawing = draw(request);
		drawings.set(key, drawing);
		// A failed drawing is not kept; the oldest goes once there are more than KEPT_DRAWINGS.
		drawing.catch(() => drawings.delete(key));
		if (drawings.size > KEPT_DRAWINGS) drawings.delete(drawings.keys().next().value!);
	}
	return drawing;
}

function drawingKey(request: DrawRequest): string {
	const hash = createHash('sha256');
	const { references, ...rest } = request;
	hash.update(JSON.stringify(rest));
	for (const reference of references) hash.update(createHash('sha256').update(reference).digest());
	return hash.digest('hex');
}

async function draw(request: DrawRequest): Promise<DrawnImage> {
	const random = seededRandom(request.seed);
	const background = askedColour(request.prompt);
	const face = await faceOf(request.references);
	const { width, height, format } = request;
	if (request.kind === 'head') {
		const side = Math.round(Math.min(width, height) * 0.72);
		const canvas = sharp(paintBackground(width, height, background, random), {
			raw: { width, height, channels: 3 }
		}).composite([
			{ input: await headLayer(face, side), left: Math.round((width - side) / 2), top: Math.round((height - side) / 2) }
		]);
		return encode(canvas, format);
	}
	const grid = /(\d+) columns × (\d+) rows/.exec(request.prompt);
	const cols = request.kind === 'sheet' && grid ? Number(grid[1]) : 1;
	const rows = request.kind === 'sheet' && grid ? Number(grid[2]) : 1;
	const captions =
		request.kind === 'anchor' ? undefined : [...request.prompt.matchAll(/caption "([^"]+)"/g)].map((m) => m[1]!);
	const sheet = await drawSheetArt({
		cols,
		rows,
		width,
		height,
		background,
		captions,
		face,
		random,
		countOffset: request.kind === 'sheet' ? request.countOffset : 0,
		emptyCell: request.emptyCell,
		format
	});
	return { image: sheet.image, mimeType: sheet.mimeType };
}

/**
 * For other fakes in tests (the OpenAI images fake): a drawing for a prompt at a given size, the
 * kind read from the prompt's words.
 */
export async function drawFromPrompt(
	prompt: string,
	references: Buffer[],
	size: { width: number; height: number } = { width: 1024, height: 1024 }
): Promise<Buffer> {
	const drawn = await drawRequested({ kind: imageKindOf(prompt), prompt, references, ...size, seed: hashText(prompt) });
	return drawn.image;
}

export function imageKindOf(prompt: string): ImageRequestKind {
	if (/^Draw only the head/.test(prompt)) return 'head';
	if (/ columns × \d+ rows/.test(prompt)) return 'sheet';
	if (/^One sticker figure/.test(prompt)) return 'figure';
	return 'anchor';
}

/** A small, soft version of an image: what a model's thought parts carry as a draft. */
export async function draftOf(image: Buffer): Promise<DrawnImage> {
	return {
		image: await sharp(image).resize(256, 256, { fit: 'inside' }).blur(2).png().toBuffer(),
		mimeType: 'image/png'
	};
}

function askedColour(prompt: string): Rgb {
	const hex = /#([0-9A-Fa-f]{6})\b/.exec(prompt)?.[1];
	if (!hex) return DEFAULT_SHEET_COLOUR;
	return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

async function encode(canvas: Sharp, format: 'png' | 'jpeg' = 'png'): Promise<DrawnImage> {
	if (format === 'jpeg') return { image: await canvas.jpeg({ quality: 88 }).toBuffer(), mimeType: 'image/jpeg' };
	return { image: await canvas.png({ compressionLevel: 2 }).toBuffer(), mimeType: 'image/png' };
}
