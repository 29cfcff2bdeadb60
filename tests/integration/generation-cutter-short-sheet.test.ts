import { describe, expect, it } from 'vitest';
import { cutSheet } from '../../src/lib/server/media/sticker-cutter.ts';
import { faceOf } from '../../tools/fake-gemini/photo-head.ts';
import { drawSheetArt } from '../../tools/fake-gemini/sheet-art.ts';
import { seededRandom } from '../../tools/fake-gemini/seeded.ts';
import { makeSelfie } from './generation-selfie.ts';

/**
 * A sheet one figure short, drawn by the stand-in with each figure off its cell by up to 10 %: the
 * cutter still says the count is wrong, and — given the grid — places each figure it found in its
 * cell, so the pipeline can keep them and draw only the empty cell's figure.
 */
describe('the cutter on a sheet one figure short', () => {
	it.each([0, 2, 4, 5])(
		'places the five figures in their cells and names empty cell %i',
		async (emptyCell) => {
			const face = await faceOf([await makeSelfie()]);
			const art = await drawSheetArt({
				cols: 3,
				rows: 2,
				width: 2512,
				height: 1680,
				background: { r: 0, g: 177, b: 64 },
				captions: ['A1', 'B2', 'C3', 'D4', 'E5', 'F6'],
				face,
				random: seededRandom(700 + emptyCell),
				countOffset: -1,
				emptyCell,
				format: 'png'
			});
			const cut = await cutSheet(art.image, { expected: 6, grid: { cols: 3, rows: 2 } });
			expect(cut.diagnosis).toMatchObject({ ok: false, found: 5, expected: 6 });
			expect(cut.diagnosis.reason).toBe(`found 5 figures, expected 6; empty cells ${emptyCell + 1}`);
			expect(cut.stickers).toEqual([]);
			expect(cut.byCell!.map((b) => b !== null)).toEqual([0, 1, 2, 3, 4, 5].map((cell) => cell !== emptyCell));
		},
		60_000
	);

	it('without the grid it only reports the wrong count', async () => {
		const face = await faceOf([await makeSelfie()]);
		const art = await drawSheetArt({
			cols: 3,
			rows: 2,
			width: 2512,
			height: 1680,
			background: { r: 0, g: 177, b: 64 },
			face,
			captions: ['A'],
			random: seededRandom(9),
			countOffset: -1,
			format: 'png'
		});
		const cut = await cutSheet(art.image, { expected: 6 });
		expect(cut.byCell).toBeUndefined();
		expect(cut.diagnosis.reason).toBe('found 5 figures, expected 6');
	}, 60_000);
});
