import sharp, { type OutputInfo } from 'sharp';
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
			const row = Array.from({ length: info.width }, (_, x) =>
				data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)
			);
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
		const speck = await sharp({ create: { width: 6, height: 6, channels: 3, background: { r: 250, g: 20, b: 20 } } })
			.png()
			.toBuffer();
		const dirty = await sharp(sheet)
			.composite([{ input: speck, left: 1010, top: 670 }])
			.png()
			.toBuffer();
		const { diagnosis } = await cutSheet(dirty, { expected: 6 });
		expect(diagnosis.ok).toBe(true);
		expect(diagnosis.rejects.map((r) => r.reason)).toContain('speck');
	});
});

/**
 * Cut quality against what the sticker should be: a sheet of flat discs of one known colour on a
 * known sheet colour, so every sticker pixel has a right answer — the disc's colour inside, white
 * or a mix of white and the disc colour at the edge (the sheet colour un-mixed from it), transparent
 * outside. The cutter before the sticker-size matte left up to ~50 % sheet colour in its edge pixels.
 */
describe('the sticker cutter, pixel by pixel', () => {
	const cases = [
		{ name: 'magenta discs on the default green', disc: { r: 200, g: 40, b: 160 }, sheet: SHEET_BACKGROUND },
		{ name: 'orange discs on a blue sheet', disc: { r: 240, g: 150, b: 30 }, sheet: { r: 30, g: 90, b: 200 } }
	];
	for (const { name, disc, sheet } of cases) {
		it(`cuts ${name} cleanly`, async () => {
			const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="150" fill="rgb(${disc.r},${disc.g},${disc.b})"/></svg>`;
			const figure = await sharp(Buffer.from(svg)).png().toBuffer();
			const png = await composeSheet(
				Array.from({ length: 6 }, () => figure),
				{ cols: 3, rows: 2, width: 2048, height: 1365 },
				sheet
			);
			const { stickers, diagnosis } = await cutSheet(png, { expected: 6 });
			expect(diagnosis).toMatchObject({ ok: true, found: 6, background: sheet });
			for (const sticker of stickers)
				expectCleanDisc(await sharp(sticker).raw().toBuffer({ resolveWithObject: true }), sticker.length, disc, sheet);
		});
	}
});

describe('the sticker cutter on a figure with a wide soft edge', () => {
	it('still gives Telegram-sized stickers (the overshoot past 512 is scaled down, not cropped)', async () => {
		const glow = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><defs><radialGradient id="g"><stop offset="0.6" stop-color="#c828a0"/><stop offset="1" stop-color="#c828a0" stop-opacity="0"/></radialGradient></defs><circle cx="200" cy="200" r="190" fill="url(#g)"/></svg>`;
		const figure = await sharp(Buffer.from(glow)).png().toBuffer();
		const png = await composeSheet(
			[figure, figure, figure],
			{ cols: 3, rows: 1, width: 1536, height: 600 },
			SHEET_BACKGROUND
		);
		const { stickers, diagnosis } = await cutSheet(png, { expected: 3 });
		expect(diagnosis.ok).toBe(true);
		for (const sticker of stickers) {
			const { width = 0, height = 0, channels } = await sharp(sticker).metadata();
			expect({ long: Math.max(width, height), channels }).toEqual({ long: 512, channels: 4 });
			expect(Math.min(width, height)).toBeGreaterThan(480); // round: not squashed
		}
	});
});

type Colour = { r: number; g: number; b: number };
type Sticker = { data: Buffer; info: OutputInfo };
type Disc = { cx: number; cy: number; radius: number };

function expectCleanDisc(sticker: Sticker, bytes: number, colour: Colour, sheet: Colour): void {
	const { data, info } = sticker;
	expect(info.channels).toBe(4);
	expect(Math.max(info.width, info.height)).toBe(512);
	expect(bytes).toBeLessThanOrEqual(512 * 1024);
	expect(data[3]).toBe(0);
	const disc = findDisc(sticker, colour);
	expect(disc.radius).toBeGreaterThan(200); // the disc fills the sticker (less its outline), not a corner of it
	const defects = countDefects(sticker, disc, colour, sheet);
	expect({
		holes: defects.holes,
		strayAlpha: defects.strayAlpha,
		outlineGaps: countOutlineGaps(sticker, disc)
	}).toEqual({ holes: 0, strayAlpha: 0, outlineGaps: 0 });
	expect(defects.worstTint).toBeLessThan(0.3);
	expect(defects.tinted).toBeLessThan((2 * Math.PI * disc.radius) / 4); // a slight tint on at most a quarter of the edge
}

/** Where the disc is: centre and radius of its opaque pixels of its own colour. */
function findDisc({ data, info }: Sticker, colour: Colour): Disc {
	let n = 0,
		sx = 0,
		sy = 0;
	for (let y = 0, i = 0; y < info.height; y++) {
		for (let x = 0; x < info.width; x++, i += 4) {
			if (data[i + 3] === 255 && distanceTo(data, i, colour) < 12) {
				n++;
				sx += x;
				sy += y;
			}
		}
	}
	return { cx: sx / n, cy: sy / n, radius: Math.sqrt(n / Math.PI) };
}

function countDefects({ data, info }: Sticker, { cx, cy, radius }: Disc, colour: Colour, sheet: Colour) {
	let holes = 0,
		strayAlpha = 0,
		tinted = 0,
		worstTint = 0;
	for (let y = 0, i = 0; y < info.height; y++) {
		for (let x = 0; x < info.width; x++, i += 4) {
			const r = Math.hypot(x - cx, y - cy);
			// Deep inside: opaque and exactly the disc's colour.
			if (r < radius - 3 && (data[i + 3] !== 255 || distanceTo(data, i, colour) > 6)) holes++;
			// Far outside the outline nothing is left of the sheet.
			if (r > radius + 18 && data[i + 3] !== 0) strayAlpha++;
			// No visible pixel keeps much of the sheet colour (a green rim inside the outline).
			if (data[i + 3]! < 128) continue;
			const tint = sheetShare(data, i, colour, sheet);
			worstTint = Math.max(worstTint, tint);
			if (tint > 0.1) tinted++;
		}
	}
	return { holes, strayAlpha, tinted, worstTint };
}

/** The white outline: on every ray from the centre, 3 and 6 px past the disc's edge are opaque white. */
function countOutlineGaps({ data, info }: Sticker, { cx, cy, radius }: Disc): number {
	let gaps = 0;
	for (let angle = 0; angle < 360; angle += 5) {
		for (const d of [3, 6]) {
			const x = Math.round(cx + Math.cos((angle * Math.PI) / 180) * (radius + d));
			const y = Math.round(cy + Math.sin((angle * Math.PI) / 180) * (radius + d));
			if (x < 0 || y < 0 || x > info.width - 1 || y > info.height - 1) continue;
			const i = (y * info.width + x) * 4;
			if (data[i + 3]! < 230 || data[i]! < 235 || data[i + 1]! < 235 || data[i + 2]! < 235) gaps++;
		}
	}
	return gaps;
}

function distanceTo(data: Buffer, i: number, c: Colour): number {
	return Math.hypot(data[i]! - c.r, data[i + 1]! - c.g, data[i + 2]! - c.b);
}

/**
 * How much of the sheet colour a pixel holds: its colour written as disc + s·(sheet − disc) +
 * t·(white − disc) (least squares; white is the outline it may be blended with), s.
 */
function sheetShare(data: Buffer, i: number, disc: Colour, sheet: Colour): number {
	const u = [sheet.r - disc.r, sheet.g - disc.g, sheet.b - disc.b];
	const v = [255 - disc.r, 255 - disc.g, 255 - disc.b];
	const p = [data[i]! - disc.r, data[i + 1]! - disc.g, data[i + 2]! - disc.b];
	const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
	const uu = dot(u, u),
		vv = dot(v, v),
		uv = dot(u, v);
	return (dot(p, u) * vv - dot(p, v) * uv) / (uu * vv - uv * uv);
}
