import { readImageSize, resolutionOf, type ImageSize } from '../../media/image-size.ts';
import { STICKER_SIDE } from '../../media/sticker-format.ts';
import { ProviderError } from '../../providers/provider.ts';

/**
 * Drawn images are checked for size before anything is cut from them: a sticker is 512 px on its
 * long side, and a figure drawn smaller than that would only be upscaled into a soft sticker. A
 * sheet must give every cell of its grid 512 px both ways; one drawn figure, the anchor and the
 * head must be 512 px on their short side.
 */
export const MIN_DRAWN_PX = STICKER_SIDE;

export interface SheetSize extends ImageSize {
	/** The smaller side of one grid cell, in pixels. */
	cell: number;
	ok: boolean;
}

export async function measureSheet(image: Buffer, grid: { cols: number; rows: number }): Promise<SheetSize> {
	const size = await readImageSize(image);
	const cell = Math.floor(Math.min(size.width / grid.cols, size.height / grid.rows));
	return { ...size, cell, ok: cell >= MIN_DRAWN_PX };
}

/** Why a single drawn image is too small to use, or null when it is fine. */
export async function tooSmall(image: Buffer): Promise<string | null> {
	const size = await readImageSize(image);
	return Math.min(size.width, size.height) >= MIN_DRAWN_PX
		? null
		: `drawn at ${resolutionOf(size)}, under ${MIN_DRAWN_PX} px`;
}

/** The anchor and the head: too small is a bad answer, and the attempt fails rather than work from it. */
export async function expectUsableSize(image: Buffer, what: string): Promise<void> {
	const problem = await tooSmall(image);
	if (problem) throw new ProviderError('bad_output', `${what} ${problem}`);
}
