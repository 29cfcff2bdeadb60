import { faceOf } from './photo-head.ts';
import { drawSheetArt, type PlacedFigure, type Rgb } from './sheet-art.ts';
import { seededRandom } from './seeded.ts';

/**
 * A fixed set of realistic sheets made by the stand-in (seeded, so the same on every run) with the
 * right answer for each: 3×2 sheets at the 2K size the product asks for, PNG and JPEG, on the
 * product's sheet green and on another colour, plus one sheet with a figure too many and one with
 * a figure too few. For the cutter's tests and the cut benchmark.
 */
export interface CorpusSheet {
	name: string;
	image: Buffer;
	mimeType: string;
	cols: number;
	rows: number;
	/** Figures the grid asks for, and figures actually drawn. */
	expected: number;
	drawn: number;
	figures: PlacedFigure[];
}

const GREEN: Rgb = { r: 0, g: 177, b: 64 };
const BLUE: Rgb = { r: 30, g: 90, b: 200 };
const CAPTIONS = [
	'Hello!',
	'Wow',
	'Party time',
	'Yes!',
	'LOL',
	'Bye',
	'Cheers',
	'OK',
	'Thanks',
	'Oops',
	'Love it',
	'Hi'
];

const SHEETS: { name: string; seed: number; format: 'png' | 'jpeg'; background: Rgb; countOffset: -1 | 0 | 1 }[] = [
	{ name: 'png-green-1', seed: 101, format: 'png', background: GREEN, countOffset: 0 },
	{ name: 'png-green-2', seed: 102, format: 'png', background: GREEN, countOffset: 0 },
	{ name: 'jpeg-green-1', seed: 201, format: 'jpeg', background: GREEN, countOffset: 0 },
	{ name: 'jpeg-green-2', seed: 202, format: 'jpeg', background: GREEN, countOffset: 0 },
	{ name: 'png-blue', seed: 301, format: 'png', background: BLUE, countOffset: 0 },
	{ name: 'extra-figure', seed: 401, format: 'png', background: GREEN, countOffset: 1 },
	{ name: 'missing-figure', seed: 501, format: 'jpeg', background: GREEN, countOffset: -1 }
];

/** 2K at 3:2, as the stand-in answers imageConfig {imageSize: '2K', aspectRatio: '3:2'}. */
export const CORPUS_SIZE = { width: 2512, height: 1680 };

export async function buildCorpus(photo: Buffer): Promise<CorpusSheet[]> {
	const face = await faceOf([photo]);
	const sheets: CorpusSheet[] = [];
	for (const [k, spec] of SHEETS.entries()) {
		const captions = CAPTIONS.slice((k * 2) % 6, ((k * 2) % 6) + 7);
		const art = await drawSheetArt({
			cols: 3,
			rows: 2,
			...CORPUS_SIZE,
			background: spec.background,
			captions,
			face,
			random: seededRandom(spec.seed),
			countOffset: spec.countOffset,
			format: spec.format
		});
		sheets.push({
			name: spec.name,
			image: art.image,
			mimeType: art.mimeType,
			cols: 3,
			rows: 2,
			expected: 6,
			drawn: art.figures.length,
			figures: art.figures
		});
	}
	return sheets;
}
