import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { DEFAULT_SHEET_KEY, type SheetKey } from './sheet-key.ts';

/**
 * The layout guide sent with every sheet request: the flat sheet colour with the grid drawn in,
 * one numbered cell per figure, so the model keeps figures apart and in the right count.
 * Generated once per format and key colour as DATA_DIR/layout_guide_<cols>x<rows>_<aspect>.png (green)
 * or …_<aspect>_<key>.png (magenta, blue) and reused.
 */
export interface GuideFormat {
	cols: number;
	rows: number;
	width: number;
	height: number;
}

export function layoutGuideName(format: GuideFormat, key: SheetKey = DEFAULT_SHEET_KEY): string {
	const g = gcd(format.width, format.height);
	const colour = key === DEFAULT_SHEET_KEY ? '' : `_${key.name}`;
	return `layout_guide_${format.cols}x${format.rows}_${format.width / g}-${format.height / g}${colour}.png`;
}

/** The guide's shape as an image API names aspect ratios: "3:2" for 1536×1024. */
export function layoutAspectRatio(format: GuideFormat): string {
	const g = gcd(format.width, format.height);
	return `${format.width / g}:${format.height / g}`;
}

export async function ensureLayoutGuide(
	dataDir: string,
	format: GuideFormat,
	key: SheetKey = DEFAULT_SHEET_KEY
): Promise<Buffer> {
	const file = path.join(dataDir, layoutGuideName(format, key));
	if (existsSync(file)) return readFile(file);
	const png = await drawLayoutGuide(format, key);
	await mkdir(dataDir, { recursive: true });
	// A temp name of this call's own: two slots of one worker drawing their first sheet at once
	// each write and rename theirs (the second rename replaces an identical file), where a shared
	// name let the slower one find its temp file already renamed away (ENOENT) and fail its job.
	const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
	await writeFile(temp, png);
	await rename(temp, file);
	return png;
}

async function drawLayoutGuide({ cols, rows, width, height }: GuideFormat, key: SheetKey): Promise<Buffer> {
	const cw = width / cols;
	const ch = height / rows;
	const cells: string[] = [];
	for (let r = 0; r < rows; r++) {
		for (let c = 0; c < cols; c++) {
			const x = c * cw;
			const y = r * ch;
			cells.push(
				`<rect x="${x + cw * 0.07}" y="${y + ch * 0.07}" width="${cw * 0.86}" height="${ch * 0.86}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="4" stroke-dasharray="18 12" rx="24"/>`
			);
			cells.push(
				`<text x="${x + cw / 2}" y="${y + ch / 2}" font-family="DejaVu Sans, sans-serif" font-size="${Math.round(ch * 0.18)}" fill="#ffffff" fill-opacity="0.45" text-anchor="middle" dominant-baseline="middle">${r * cols + c + 1}</text>`
			);
		}
	}
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${key.hex}"/>${cells.join('')}</svg>`;
	return sharp(Buffer.from(svg)).png().toBuffer();
}

function gcd(a: number, b: number): number {
	return b === 0 ? a : gcd(b, a % b);
}
