import { describe, expect, it } from 'vitest';
import { captionRoom, charactersThatFit, fitCaption, inkWidthPerPx, MIN_CAPTION_SHARE } from './caption-fit.ts';

describe('fitting a caption on a 512-px sticker', () => {
	it('keeps a short caption on one line in the full type', async () => {
		expect(await fitCaption('Hi!', 512)).toEqual({ lines: ['Hi!'], fontSize: 74, fits: true });
	});

	it('measures wide letters wider than narrow ones, and the same text the same', async () => {
		expect(await inkWidthPerPx('WWWW')).toBeGreaterThan((await inkWidthPerPx('iiii')) * 2);
		expect(await inkWidthPerPx('Party!')).toBe(await inkWidthPerPx('Party!'));
	});

	it('shrinks, then splits at the space that balances the lines; every line fits the room', async () => {
		const layout = await fitCaption('CORPORATE GALA FOREVER 2026', 512);
		expect(layout).toMatchObject({ lines: ['CORPORATE GALA', 'FOREVER 2026'], fits: true });
		expect(layout.fontSize).toBeGreaterThanOrEqual(512 * MIN_CAPTION_SHARE - 1);
		for (const line of layout.lines)
			expect((await inkWidthPerPx(line)) * layout.fontSize).toBeLessThanOrEqual(captionRoom(512));
	});

	it('cuts one long word in the middle only when no split at a space fits', async () => {
		const layout = await fitCaption('Supercalifragilisticexpialidociousxxx A', 512);
		expect(layout).toMatchObject({ lines: ['Supercalifragilistic', 'expialidociousxxx A'], fits: true });
	});

	it('a caption too wide even in two lines at the smallest type does not fit; fewer characters like it would', async () => {
		const caption = 'WWWWWWWWWW WWWWWWWWWW WWWWWWWWWW WWWWWWW';
		expect((await fitCaption(caption, 512)).fits).toBe(false);
		const fitting = await charactersThatFit(caption, 512);
		expect(fitting).toBeLessThan(caption.length);
		expect((await fitCaption('W'.repeat(fitting - 2), 512)).fits).toBe(true);
	});
});
