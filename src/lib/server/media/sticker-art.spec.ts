import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSelfie } from '../../../../tests/integration/generation-selfie.ts';
import { defaultOutfitSnapshot } from '../outfits/default-outfit.ts';
import { getFaceDetector, type FaceBox } from './face-detector.ts';
import { fitCaption } from './caption-fit.ts';
import { drawFigure, type FigureInput } from './sticker-art.ts';
import { captionSvg } from './sticker-decor.ts';
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
		base = {
			selfie,
			face,
			variant: STICKER_VARIANTS[0]!,
			index: 0,
			style: 'cartoon',
			palette: paletteForOutfit('chef'),
			outfit: defaultOutfitSnapshot('chef'),
			caption: 'Hi!',
			size: 512
		};
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

	it('draws a caption wider than the sticker whole, inside its edges (smaller type, two lines), never cut', async () => {
		const long = 'CORPORATE GALA FOREVER 2026';
		for (const caption of [long, 'Hi!']) {
			const drawn = await sharp(await drawFigure({ ...base, caption }))
				.raw()
				.toBuffer({ resolveWithObject: true });
			const ink = inkBox(drawn.data, drawn.info.width, drawn.info.height, 4, (y) => y >= 440);
			// The caption strip's ink stays clear of both side edges and the bottom edge.
			expect(ink.left, caption).toBeGreaterThan(2);
			expect(ink.right, caption).toBeLessThan(509);
			expect(ink.bottom, caption).toBeLessThan(509);
		}
		// The caption alone, as fitted: two lines, every letter inside the sticker (a cut caption touches an edge).
		const layout = await fitCaption(long, 512);
		expect(layout).toMatchObject({ lines: ['CORPORATE GALA', 'FOREVER 2026'], fits: true });
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">${captionSvg(layout, 512, '#ffffff', '#000000')}</svg>`;
		const alone = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
		const box = inkBox(alone.data, 512, 512, 4, () => true);
		expect(box.left).toBeGreaterThan(2);
		expect(box.right).toBeLessThan(509);
		expect(box.right - box.left).toBeGreaterThan(300);
		expect(box.bottom).toBeLessThan(509);
	}, 60_000);
});

/** The bounding box of pixels with any alpha in the rows `row` accepts. */
function inkBox(data: Buffer, width: number, height: number, channels: number, row: (y: number) => boolean) {
	const box = { left: width, right: -1, top: height, bottom: -1 };
	for (let y = 0; y < height; y++) {
		if (!row(y)) continue;
		for (let x = 0; x < width; x++) {
			if ((data[(y * width + x) * channels + channels - 1] ?? 0) === 0) continue;
			box.left = Math.min(box.left, x);
			box.right = Math.max(box.right, x);
			box.top = Math.min(box.top, y);
			box.bottom = Math.max(box.bottom, y);
		}
	}
	return box;
}
