import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSelfie } from '../../../../tests/integration/generation-selfie.ts';
import { defaultOutfitSnapshot } from '../outfits/default-outfit.ts';
import { getFaceDetector, type FaceBox } from './face-detector.ts';
import { drawFigure, type FigureInput } from './sticker-art.ts';
import { paletteForOutfit } from './sticker-style.ts';
import { STICKER_VARIANTS } from './sticker-variants.ts';

/** Share of pixels that differ in rows [from, to) of two same-size RGBA drawings. */
async function changedShare(a: Buffer, b: Buffer, from: number, to: number): Promise<number> {
	const [x, y] = await Promise.all([a, b].map((png) => sharp(png).raw().toBuffer({ resolveWithObject: true })));
	const width = x!.info.width;
	let changed = 0;
	for (let row = from; row < to; row++) {
		for (let col = 0; col < width; col++) {
			const i = (row * width + col) * 4;
			if (x!.data.readUInt32BE(i) !== y!.data.readUInt32BE(i)) changed++;
		}
	}
	return changed / ((to - from) * width);
}

describe('an offline sticker drawing', () => {
	let base: FigureInput;
	beforeAll(async () => {
		const selfie = await makeSelfie();
		const face: FaceBox = (await (await getFaceDetector()).findFaces(selfie))[0]!;
		base = { selfie, face, variant: STICKER_VARIANTS[0]!, index: 0, style: 'cartoon', palette: paletteForOutfit('chef'), outfit: defaultOutfitSnapshot('chef'), caption: 'Hi!', size: 512 };
	}, 60_000);

	it("writes the caption it is given (the event's), and only the caption strip changes with it", async () => {
		const hi = await drawFigure(base);
		const event = await drawFigure({ ...base, caption: 'Acme!' });
		expect(await changedShare(hi, event, 440, 512)).toBeGreaterThan(0.02);
		expect(await changedShare(hi, event, 0, 400)).toBe(0);
	}, 60_000);

	it('is the same pixels for the same input', async () => {
		const [first, second] = await Promise.all([drawFigure(base), drawFigure(base)]);
		expect(first.equals(second)).toBe(true);
	}, 60_000);
});
