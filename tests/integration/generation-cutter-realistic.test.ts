import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getFaceDetector } from '../../src/lib/server/media/face-detector.ts';
import { cutSheet, type CutResult } from '../../src/lib/server/media/sticker-cutter.ts';
import { inspectSticker } from '../../src/lib/server/media/sticker-qa.ts';
import { buildCorpus, type CorpusSheet } from '../../tools/fake-gemini/corpus.ts';
import { CAPTION_FILL } from '../../tools/fake-gemini/figure-art.ts';
import { makeSelfie } from './generation-selfie.ts';

/**
 * The cutter and the local quality gate on sheets drawn the way image models draw them (by the
 * stand-in, seeded): a background only near the asked colour, figures off their cells, captions
 * touching their figures, PNG and JPEG, a figure too many or too few. The stand-in says where every
 * figure and caption is, and never draws green, so any green left on a sticker is sheet colour.
 */
let corpus: CorpusSheet[] = [];
const cuts = new Map<string, CutResult>();

beforeAll(async () => {
	corpus = await buildCorpus(await makeSelfie());
	for (const sheet of corpus) cuts.set(sheet.name, await cutSheet(sheet.image, { expected: sheet.expected }));
}, 120_000);

const rightCount = () => corpus.filter((s) => s.drawn === s.expected);

describe('the cutter on realistic sheets', () => {
	it('finds the right count on every sheet drawn with it, in reading order, each figure where it was drawn', () => {
		expect(rightCount().length).toBeGreaterThanOrEqual(5);
		for (const sheet of rightCount()) {
			const { diagnosis, stickers } = cuts.get(sheet.name)!;
			expect({ sheet: sheet.name, ok: diagnosis.ok, found: diagnosis.found, stickers: stickers.length }).toEqual({
				sheet: sheet.name,
				ok: true,
				found: 6,
				stickers: 6
			});
			for (const [i, figure] of diagnosis.figures.entries()) {
				const drawn = sheet.figures[i]!.box;
				const cx = figure.box.x + figure.box.width / 2;
				const cy = figure.box.y + figure.box.height / 2;
				expect(
					cx > drawn.x && cx < drawn.x + drawn.width && cy > drawn.y && cy < drawn.y + drawn.height,
					`${sheet.name} figure ${i + 1}`
				).toBe(true);
			}
		}
	});

	it('takes the wrong-count path on a sheet with a figure too many or too few', () => {
		const wrong = corpus.filter((s) => s.drawn !== s.expected);
		expect(wrong.map((s) => s.drawn).sort()).toEqual([5, 7]);
		for (const sheet of wrong) {
			const { diagnosis, stickers } = cuts.get(sheet.name)!;
			expect({ ok: diagnosis.ok, found: diagnosis.found, reason: diagnosis.reason, stickers: stickers.length }).toEqual(
				{ ok: false, found: sheet.drawn, reason: `found ${sheet.drawn} figures, expected 6`, stickers: 0 }
			);
		}
	});

	it('leaves no background halo wider than 2 px around any figure', async () => {
		// The measure itself: a disc in a 4-px ring of sheet green measures 4–5 (the ring's anti-aliased edges count).
		const ring = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><circle cx="100" cy="100" r="80" fill="rgb(0,177,64)"/><circle cx="100" cy="100" r="76" fill="rgb(200,40,160)"/></svg>`;
		const measured = await widestHalo(await sharp(Buffer.from(ring)).png().toBuffer(), 'green');
		expect(measured >= 4 && measured <= 5, `a 4-px ring measured ${measured}`).toBe(true);
		for (const sheet of rightCount()) {
			for (const [i, png] of cuts.get(sheet.name)!.stickers.entries()) {
				expect(
					await widestHalo(png, sheet.name.includes('blue') ? 'blue' : 'green'),
					`${sheet.name} #${i + 1}`
				).toBeLessThanOrEqual(2);
			}
		}
	});

	it('keeps every caption with its figure: the plate is on the sticker, under the figure', async () => {
		for (const sheet of rightCount()) {
			for (const [i, png] of cuts.get(sheet.name)!.stickers.entries()) {
				const plate = await captionPixels(png);
				expect({ sticker: `${sheet.name} #${i + 1}`, plate: plate.share > 0.03, below: plate.centreY > 0.75 }).toEqual({
					sticker: `${sheet.name} #${i + 1}`,
					plate: true,
					below: true
				});
			}
		}
	});

	it('passes every sticker through the local gate: one face, not blank, head not cut', async () => {
		const detector = await getFaceDetector();
		for (const sheet of rightCount()) {
			for (const [i, png] of cuts.get(sheet.name)!.stickers.entries()) {
				const verdict = await inspectSticker(png, detector);
				expect({ sticker: `${sheet.name} #${i + 1}`, reasons: verdict.reasons }).toEqual({
					sticker: `${sheet.name} #${i + 1}`,
					reasons: []
				});
			}
		}
	}, 120_000);
});

/**
 * How wide the widest band of sheet colour left on a sticker is: visible pixels whose hue is the
 * sheet's (green over red and blue, or blue over red and green — the figure's own colours never
 * are), each measured across the band: the shortest of its runs along a row, a column and the two
 * diagonals (a diagonal step is √2 px), so a one-pixel rim along a long edge is 1 px wide.
 */
async function widestHalo(png: Buffer, sheet: 'green' | 'blue'): Promise<number> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	const { width, height } = info;
	const isHalo = (x: number, y: number) => {
		if (x < 0 || y < 0 || x >= width || y >= height) return false;
		const i = (y * width + x) * 4;
		const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
		return data[i + 3]! >= 128 && (sheet === 'green' ? g > r + 40 && g > b + 40 : b > r + 60 && b > g + 40);
	};
	const run = (x: number, y: number, dx: number, dy: number) => {
		let n = 1;
		for (let k = 1; isHalo(x + k * dx, y + k * dy); k++) n++;
		for (let k = 1; isHalo(x - k * dx, y - k * dy); k++) n++;
		return n * Math.hypot(dx, dy);
	};
	let widest = 0;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if (isHalo(x, y))
				widest = Math.max(widest, Math.min(run(x, y, 1, 0), run(x, y, 0, 1), run(x, y, 1, 1), run(x, y, 1, -1)));
		}
	}
	return Math.round(widest);
}

/** How much of the sticker is caption plate, and where its middle is (share of the height from the top). */
async function captionPixels(png: Buffer): Promise<{ share: number; centreY: number }> {
	const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	let count = 0;
	let sumY = 0;
	for (let y = 0, i = 0; y < info.height; y++) {
		for (let x = 0; x < info.width; x++, i += 4) {
			if (data[i + 3]! < 200) continue;
			if (
				Math.abs(data[i]! - CAPTION_FILL.r) +
					Math.abs(data[i + 1]! - CAPTION_FILL.g) +
					Math.abs(data[i + 2]! - CAPTION_FILL.b) >
				45
			)
				continue;
			count++;
			sumY += y;
		}
	}
	return { share: count / (info.width * info.height), centreY: count ? sumY / count / info.height : 0 };
}
