import sharp from 'sharp';
import { getFaceDetector, type FaceBox } from '../../src/lib/server/media/face-detector.ts';
import { cutPortrait } from '../../src/lib/server/media/matte.ts';
import { drawFigure } from '../../src/lib/server/media/sticker-art.ts';
import { composeSheet, SHEET_BACKGROUND } from '../../src/lib/server/media/sticker-sheet.ts';
import { paletteForOutfit, STYLE_RECIPES } from '../../src/lib/server/media/sticker-style.ts';
import { STICKER_VARIANTS } from '../../src/lib/server/media/sticker-variants.ts';

/**
 * What the fake "model" draws: real sticker figures of the person in the reference image (found
 * with the offline face model), on the flat sheet colour — so the real cutter and quality gate see
 * what a real model would send. A figure count in the prompt ("exactly 6 separate figures",
 * "3 columns × 2 rows") sets the sheet; `missing` leaves figures out (the wrong-count fault). A head
 * request ("Draw only the head…") gets the reference's head alone.
 */
export async function drawFromPrompt(prompt: string, references: Buffer[], missing = 0): Promise<Buffer> {
	const reference = references.at(-1);
	if (!reference) throw new Error('no reference image in the request');
	const faces = await (await getFaceDetector()).findFaces(reference);
	const face = faces[0] ?? { x: 0, y: 0, width: 200, height: 200, score: 0 };
	if (/^Draw only the head/.test(prompt)) return drawHead(reference, face);
	const grid = /(\d+) columns × (\d+) rows/.exec(prompt);
	const cols = grid ? Number(grid[1]) : 1;
	const rows = grid ? Number(grid[2]) : 1;
	const count = Math.max(1, cols * rows - missing);
	const offset = hashOffset(prompt);
	const figures: Buffer[] = [];
	for (let i = 0; i < count; i++) {
		const variant = STICKER_VARIANTS[(offset + i) % STICKER_VARIANTS.length]!;
		figures.push(await drawFigure({ selfie: reference, face, variant, index: offset + i, style: 'cartoon', palette: paletteForOutfit(prompt.slice(0, 40)), locale: 'en', size: 512 }));
	}
	const cell = 640;
	return composeSheet(figures, { cols, rows, width: cols * cell, height: rows * cell }, SHEET_BACKGROUND);
}

function hashOffset(text: string): number {
	const first = /caption "([^"]+)"/.exec(text)?.[1] ?? '';
	const index = STICKER_VARIANTS.findIndex((v) => Object.values(v.caption).includes(first));
	return index >= 0 ? index : 0;
}

/** A head request (stage `heads`): the reference's head and hair alone, on the flat sheet colour. */
async function drawHead(reference: Buffer, face: FaceBox): Promise<Buffer> {
	const portrait = await cutPortrait(reference, face, STYLE_RECIPES.cartoon, 1.25, 512);
	return sharp(portrait.png).flatten({ background: SHEET_BACKGROUND }).png().toBuffer();
}
