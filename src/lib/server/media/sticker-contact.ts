import sharp from 'sharp';
import type { StickerReview } from '../providers/provider.ts';
import type { StickerVerdict } from './sticker-qa.ts';

/**
 * Stickers on one image for a vision model's review (qa_sheet, qa_pack): one request instead of twelve,
 * each sticker numbered in its cell's corner so the model's verdicts can name them. Cells are on
 * light grey rather than white so the stickers' white outline stays visible to the model.
 */
export const CONTACT_COLS = 4;
const CELL = 256;

/** `numbers` are the labels (pack numbers) when the sheet shows part of the pack; 1..n otherwise. */
export async function composeContactSheet(
	stickers: Buffer[],
	numbers: number[] = stickers.map((_, i) => i + 1)
): Promise<Buffer> {
	const rows = Math.ceil(stickers.length / CONTACT_COLS);
	const layers = await Promise.all(
		stickers.map(async (png, i) => {
			const fitted = await sharp(png)
				.resize(CELL - 16, CELL - 16, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
				.png()
				.toBuffer();
			return { input: fitted, left: (i % CONTACT_COLS) * CELL + 8, top: Math.floor(i / CONTACT_COLS) * CELL + 8 };
		})
	);
	const labels = stickers
		.map((_, i) => label(numbers[i] ?? i + 1, (i % CONTACT_COLS) * CELL, Math.floor(i / CONTACT_COLS) * CELL))
		.join('');
	const svg = Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${CONTACT_COLS * CELL}" height="${rows * CELL}">${labels}</svg>`
	);
	return sharp({
		create: { width: CONTACT_COLS * CELL, height: rows * CELL, channels: 3, background: { r: 224, g: 224, b: 224 } }
	})
		.composite([...layers, { input: svg, left: 0, top: 0 }])
		.jpeg({ quality: 85 })
		.toBuffer();
}

function label(n: number, x: number, y: number): string {
	return `<rect x="${x + 4}" y="${y + 4}" width="34" height="26" rx="4" fill="#000000"/><text x="${x + 21}" y="${y + 23}" font-family="sans-serif" font-size="18" font-weight="bold" fill="#ffffff" text-anchor="middle">${n}</text>`;
}

/** The local gate's verdict in qa_sheet / qa_pack terms: what a provider without its own review answers. */
export function reviewFromLocal(n: number, verdict: StickerVerdict): StickerReview {
	const onePerson = verdict.faces === 1;
	const cropped = verdict.reasons.some((r) => r.startsWith('head cut'));
	// Offline stickers are cut from the guest's own photo, so likeness is that of the photo when a face is there.
	return {
		n,
		ok: verdict.ok,
		likeness: onePerson ? 1 : 0,
		onePerson,
		cropped,
		notes: verdict.reasons.length ? verdict.reasons : ['local checks passed']
	};
}
