import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cutSheet } from '../../src/lib/server/media/sticker-cutter.ts';
import { composeSheet, SHEET_BACKGROUND } from '../../src/lib/server/media/sticker-sheet.ts';

/** Synthetic sheets: coloured shapes with captions-like bars on the flat sheet colour. */
async function figure(i: number): Promise<Buffer> {
	const hue = (i * 47) % 360;
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
<circle cx="200" cy="170" r="140" fill="hsl(${hue},80%,60%)" stroke="#222" stroke-width="10"/>
<rect x="80" y="330" width="240" height="50" rx="20" fill="#ffffff" stroke="#222" stroke-width="6"/></svg>`;
	return sharp(Buffer.from(svg)).png().toBuffer();
}

async function sheetOf(count: number, cols = 3, rows = 2): Promise<Buffer> {
	const figures = await Promise.all(Array.from({ length: count }, (_, i) => figure(i)));
	return composeSheet(figures, { cols, rows, width: 2048, height: 1365 }, SHEET_BACKGROUND);
}

describe('the sticker cutter', () => {
	it('cuts a 3×2 sheet into 6 Telegram-ready stickers with clean alpha and a white outline', async () => {
		const { stickers, diagnosis } = await cutSheet(await sheetOf(6), { expected: 6 });
		expect(diagnosis).toMatchObject({ ok: true, found: 6, expected: 6, background: SHEET_BACKGROUND });
		expect(stickers).toHaveLength(6);
		for (const png of stickers) {
			const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
			expect(info.channels).toBe(4);
			expect(Math.max(info.width, info.height)).toBe(512);
			expect(Math.min(info.width, info.height)).toBeLessThanOrEqual(512);
			expect(png.length).toBeLessThanOrEqual(512 * 1024);
			// Corners are fully transparent; no pixel keeps the sheet's green (no fringe).
			expect(data[3]).toBe(0);
			let green = 0;
			let opaqueWhiteEdge = 0;
			for (let i = 0; i < data.length; i += 4) {
				const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
				if (a > 200 && g > 150 && r < 60 && b < 110) green++;
				if (a > 200 && r > 245 && g > 245 && b > 245) opaqueWhiteEdge++;
			}
			expect(green).toBe(0);
			expect(opaqueWhiteEdge).toBeGreaterThan(2000);
			// The outline: a row through the middle starts with white before the figure's dark stroke.
			const y = Math.floor(info.height / 2.3);
			const row = Array.from({ length: info.width }, (_, x) => data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4));
			const first = row.findIndex((p) => p[3]! > 200);
			expect(row[first + 2]![0]).toBeGreaterThan(240);
		}
	});

	it('keeps reading order and sizes in its diagnosis', async () => {
		const { diagnosis } = await cutSheet(await sheetOf(6), { expected: 6 });
		const centres = diagnosis.figures.map((f) => [f.box.x + f.box.width / 2, f.box.y + f.box.height / 2]);
		expect(centres[0]![0]).toBeLessThan(centres[1]![0]!);
		expect(centres[2]![1]).toBeLessThan(centres[3]![1]!);
		expect(diagnosis.figures.every((f) => f.output && f.output.bytes > 0 && !f.touchesEdge)).toBe(true);
	});

	it('rejects a sheet with the wrong figure count, saying why', async () => {
		const { stickers, diagnosis } = await cutSheet(await sheetOf(5), { expected: 6 });
		expect(stickers).toHaveLength(0);
		expect(diagnosis).toMatchObject({ ok: false, found: 5, expected: 6, reason: 'found 5 figures, expected 6' });
	});

	it('ignores specks on the background but reports them', async () => {
		const sheet = await sheetOf(6);
		const speck = await sharp({ create: { width: 6, height: 6, channels: 3, background: { r: 250, g: 20, b: 20 } } }).png().toBuffer();
		const dirty = await sharp(sheet).composite([{ input: speck, left: 1010, top: 670 }]).png().toBuffer();
		const { diagnosis } = await cutSheet(dirty, { expected: 6 });
		expect(diagnosis.ok).toBe(true);
		expect(diagnosis.rejects.map((r) => r.reason)).toContain('speck');
	});
});
