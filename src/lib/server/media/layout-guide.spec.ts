import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureLayoutGuide, layoutGuideName } from './layout-guide.ts';
import { SHEET_KEYS } from './sheet-key.ts';

const FORMAT = { cols: 3, rows: 2, width: 1536, height: 1024 };

describe('the layout guide', () => {
	const dirs: string[] = [];
	afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
	const dataDir = () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'layout-guide-'));
		dirs.push(dir);
		return dir;
	};

	it('is made once per key colour even when two slots of one worker ask for it at the same moment', async () => {
		const dir = dataDir();
		// Several first sheets at once, as two slots (or more) of one process start their packs together.
		const guides = await Promise.all(Array.from({ length: 6 }, () => ensureLayoutGuide(dir, FORMAT)));
		expect(new Set(guides.map((g) => g.toString('base64'))).size).toBe(1);
		expect(readdirSync(dir)).toEqual([layoutGuideName(FORMAT)]);
	});

	it('is drawn on the job’s key colour, in a file of its own', async () => {
		const dir = dataDir();
		const magenta = await ensureLayoutGuide(dir, FORMAT, SHEET_KEYS.magenta);
		const { data } = await sharp(magenta).raw().toBuffer({ resolveWithObject: true });
		expect([data[0], data[1], data[2]]).toEqual([255, 0, 255]);
		expect(readdirSync(dir)).toEqual([layoutGuideName(FORMAT, SHEET_KEYS.magenta)]);
	});
});
