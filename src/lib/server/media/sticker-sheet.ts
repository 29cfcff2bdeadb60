import sharp from 'sharp';
import { DEFAULT_SHEET_KEY } from './sheet-key.ts';

/**
 * A sheet of figures on one flat, known colour (green, or the key the outfit needs: sheet-key.ts): how image models are asked to draw (they give no
 * real transparency) and how the offline provider and the fake Gemini server draw too, so the same
 * cutter handles every provider.
 */
export const SHEET_BACKGROUND = DEFAULT_SHEET_KEY.rgb;
export const SHEET_BACKGROUND_HEX = DEFAULT_SHEET_KEY.hex;

export interface SheetLayout {
	cols: number;
	rows: number;
	width: number;
	height: number;
}

/** Places each figure (transparent PNG) centred in its grid cell, with a margin so figures never touch. */
export async function composeSheet(
	figures: Buffer[],
	layout: SheetLayout,
	background: { r: number; g: number; b: number } = SHEET_BACKGROUND
): Promise<Buffer> {
	const cellW = Math.floor(layout.width / layout.cols);
	const cellH = Math.floor(layout.height / layout.rows);
	const figureSide = Math.floor(Math.min(cellW, cellH) * 0.86);
	const layers = await Promise.all(
		figures.slice(0, layout.cols * layout.rows).map(async (figure, i) => {
			const input = await sharp(figure)
				.resize(figureSide, figureSide, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
				.png()
				.toBuffer();
			const col = i % layout.cols;
			const row = Math.floor(i / layout.cols);
			return {
				input,
				left: col * cellW + Math.floor((cellW - figureSide) / 2),
				top: row * cellH + Math.floor((cellH - figureSide) / 2)
			};
		})
	);
	return sharp({ create: { width: layout.width, height: layout.height, channels: 3, background } })
		.composite(layers)
		.png({ compressionLevel: 3 })
		.toBuffer();
}
