import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFaceDetector, type FaceBox, type FaceDetector } from '../../src/lib/server/media/face-detector.ts';
import {
	chooseSheetKey,
	hexToRgb,
	keyClearance,
	SHEET_KEYS,
	type SheetKey
} from '../../src/lib/server/media/sheet-key.ts';
import { drawFigure } from '../../src/lib/server/media/sticker-art.ts';
import { cutSheet } from '../../src/lib/server/media/sticker-cutter.ts';
import { inspectSticker, MAX_HOLE_PX } from '../../src/lib/server/media/sticker-qa.ts';
import { composeSheet } from '../../src/lib/server/media/sticker-sheet.ts';
import { paletteForOutfit } from '../../src/lib/server/media/sticker-style.ts';
import { STICKER_VARIANTS } from '../../src/lib/server/media/sticker-variants.ts';
import { FIGURE_PALETTES } from '../../src/lib/server/outfits/outfit-art.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import type { OutfitSnapshot } from '../../src/lib/schemas/outfit.ts';
import { makeSelfie } from './generation-selfie.ts';

/**
 * Costume colours near the sheet colour. The offline drawing of the guest in a costume is put on a
 * sheet of the given key colour and cut by the real cutter, as every provider's sheets are: a teal
 * or green costume keyed on green loses its pixels (washed out to the outline's white, or holes
 * right through), on the key chosen for its outfit it keeps them; and the quality gate fails a
 * figure with a hole in it.
 */
const TEAL = { body: '#1a9e8f', trim: '#0f766e' };
const GREEN = { body: '#2a9d3f', trim: '#1e6b30' };

function outfitIn(colours: { body: string; trim: string }): OutfitSnapshot {
	return {
		...defaultOutfitSnapshot('chef'),
		id: 'team-kit',
		palette: { background: ['#ffffff', '#dddddd'], ...colours }
	};
}

describe('the sheet key chosen for the outfit', () => {
	let selfie: Buffer;
	let face: FaceBox;
	let detector: FaceDetector;
	beforeAll(async () => {
		selfie = await makeSelfie();
		detector = await getFaceDetector();
		face = (await detector.findFaces(selfie))[0]!;
	}, 60_000);

	/** The figure drawn for `outfit`, on a sheet of `key`, cut: the drawing and the sticker. */
	async function drawnAndCut(outfit: OutfitSnapshot, key: SheetKey): Promise<{ drawing: Buffer; sticker: Buffer }> {
		const drawing = await drawFigure({
			selfie,
			face,
			variant: STICKER_VARIANTS[0]!,
			index: 0,
			style: 'cartoon',
			palette: paletteForOutfit(outfit.id, key),
			outfit,
			caption: 'Hi!',
			size: 512
		});
		const sheet = await composeSheet([drawing], { cols: 1, rows: 1, width: 600, height: 600 }, key.rgb);
		const cut = await cutSheet(sheet, { expected: 1, key: key.rgb });
		expect(cut.diagnosis.ok, cut.diagnosis.reason).toBe(true);
		return { drawing, sticker: cut.stickers[0]! };
	}

	/** Opaque pixels within 60 of the costume's colour: the costume as the guest sees it. */
	async function costumePixels(png: Buffer, hex: string): Promise<number> {
		const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
		const c = hexToRgb(hex);
		let n = 0;
		for (let i = 0; i < data.length; i += 4)
			if (data[i + 3]! > 200 && Math.hypot(data[i]! - c.r, data[i + 1]! - c.g, data[i + 2]! - c.b) < 60) n++;
		return n;
	}

	it('keeps green for the built-in outfits and moves off it for a green or teal costume, to the key farthest from it', () => {
		for (const [figure, palette] of Object.entries(FIGURE_PALETTES))
			expect(chooseSheetKey(palette), figure).toBe(SHEET_KEYS.green);
		for (const colours of [TEAL, GREEN]) {
			const key = chooseSheetKey(colours);
			expect(key).not.toBe(SHEET_KEYS.green);
			const clearance = (k: SheetKey) => keyClearance(k, [colours.body, colours.trim]);
			for (const other of Object.values(SHEET_KEYS))
				expect(clearance(key)).toBeGreaterThanOrEqual(clearance(other) - 1e-9);
			expect(clearance(key)).toBeGreaterThan(100);
		}
	});

	it('a teal costume keyed on green loses its colour; on the chosen key it keeps it', async () => {
		const outfit = outfitIn(TEAL);
		const onGreen = await drawnAndCut(outfit, SHEET_KEYS.green);
		const onKey = await drawnAndCut(outfit, chooseSheetKey(outfit.palette));
		const drawn = await costumePixels(onGreen.drawing, TEAL.body);
		expect(drawn).toBeGreaterThan(10_000);
		// Keyed on green the costume's pixels are matted half away (washed to the outline's white).
		expect(await costumePixels(onGreen.sticker, TEAL.body)).toBeLessThan(drawn * 0.1);
		expect(await costumePixels(onKey.sticker, TEAL.body)).toBeGreaterThan(drawn * 0.8);
	}, 60_000);

	it('a green costume keyed on green comes out with a hole the quality gate catches; on the chosen key it passes', async () => {
		const outfit = outfitIn(GREEN);
		const onGreen = await inspectSticker((await drawnAndCut(outfit, SHEET_KEYS.green)).sticker, detector);
		expect(onGreen.largestHole).toBeGreaterThan(MAX_HOLE_PX);
		expect(onGreen.ok).toBe(false);
		expect(onGreen.reasons.join('; ')).toMatch(/hole in the figure/);
		const onKey = await inspectSticker((await drawnAndCut(outfit, chooseSheetKey(outfit.palette))).sticker, detector);
		expect(onKey).toMatchObject({ ok: true, largestHole: 0 });
	}, 60_000);

	it('the quality gate fails a figure with a hole punched through it, and passes it whole', async () => {
		const { sticker } = await drawnAndCut(outfitIn({ body: '#5a189a', trim: '#e0e1dd' }), SHEET_KEYS.green);
		expect(await inspectSticker(sticker, detector)).toMatchObject({ ok: true, largestHole: 0 });
		const { data, info } = await sharp(sticker).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
		// A 40×40 see-through square in the torso, well inside the figure.
		const top = Math.round(info.height * 0.7);
		const left = Math.round(info.width / 2) - 20;
		for (let y = top; y < top + 40; y++) for (let x = left; x < left + 40; x++) data[(y * info.width + x) * 4 + 3] = 0;
		const punched = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
			.png()
			.toBuffer();
		const verdict = await inspectSticker(punched, detector);
		expect(verdict.ok).toBe(false);
		expect(verdict.largestHole).toBe(1600);
		expect(verdict.reasons).toEqual(['hole in the figure (1600 px see-through inside it)']);
	}, 60_000);
});
