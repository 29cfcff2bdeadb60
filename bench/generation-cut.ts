import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { drawOfflineSheets } from './_offline-sheet.ts';

/**
 * Peak RSS and time of cutting two packs in parallel (2 × 2 sheets of 2048 px, 12 stickers each),
 * against the floor: a bare sharp script doing decode → extract → resize → encode of the same 24
 * regions, also two packs in parallel. Each side runs in its own Node process so its peak RSS is
 * its own. Targets: peak RSS ≤ 300 MB; time within 2× of the floor. (The old system: 1.42 GB.)
 * The same figures are printed for clean sheets (flat colour, figures centred) and for four sheets
 * of the stand-in's realistic corpus at 2512×1680 (noisy, graded background, figures off their
 * cells, two of them JPEG).
 *
 *   node --import tsx bench/generation-cut.ts
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const workDir = path.join(here, '..', '.tmp', 'bench-cut');
const mode = process.argv[2];

if (mode === 'cut' || mode === 'floor') await runChild(mode);
else await runParent();

async function runParent(): Promise<void> {
	report('clean sheets: 4 of 2048×1365 (two packs, cut two at a time)', await prepareSheets());
	report(
		'realistic corpus: 4 of 2512×1680, 2 PNG + 2 JPEG (two packs, cut two at a time)',
		await prepareCorpusSheets()
	);
}

function report(title: string, sheets: string[]): void {
	const run = (m: string) => {
		const out = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), m, ...sheets], {
			encoding: 'utf8'
		});
		if (out.status !== 0) throw new Error(`${m} failed: ${out.stderr}`);
		return JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as {
			ms: number;
			cpuMs: number;
			peakRssMb: number;
			stickers: number;
		};
	};
	const floor = run('floor');
	const cut = run('cut');
	console.log(title);
	// CPU time (all threads) is printed too: on a busy machine wall time swings, CPU time much less.
	console.log(
		`floor (decode→extract→resize→encode): ${floor.ms} ms (CPU ${floor.cpuMs} ms), peak RSS ${floor.peakRssMb} MB, ${floor.stickers} images`
	);
	console.log(
		`our cutter (find, matte, outline, fit):  ${cut.ms} ms (CPU ${cut.cpuMs} ms), peak RSS ${cut.peakRssMb} MB, ${cut.stickers} stickers`
	);
	console.log(
		`time ratio ${(cut.ms / floor.ms).toFixed(2)}× (target ≤ 2×), peak RSS ratio ${(cut.peakRssMb / floor.peakRssMb).toFixed(2)}×, peak ${cut.peakRssMb} MB (target ≤ 300 MB)`
	);
}

async function prepareSheets(): Promise<string[]> {
	mkdirSync(workDir, { recursive: true });
	// Two packs (variants 1–6 and 7–12 each), in two styles, palettes and outfits.
	const sheets = await drawOfflineSheets(
		[0, 1, 2, 3].map((sheet) => ({
			firstVariant: (sheet % 2) * 6,
			style: sheet < 2 ? 'cartoon' : 'pop',
			palette: `outfit${sheet}`,
			outfit: sheet % 2 ? 'wizard' : 'astronaut'
		}))
	);
	return sheets.map((png, sheet) => {
		const file = path.join(workDir, `sheet${sheet}.png`);
		writeFileSync(file, png);
		return file;
	});
}

/** The right-count sheets of the stand-in's seeded corpus, in pairs of one PNG and one JPEG per pack. */
async function prepareCorpusSheets(): Promise<string[]> {
	const { makeSelfie } = await import('../tests/integration/generation-selfie.ts');
	const { buildCorpus } = await import('../tools/fake-gemini/corpus.ts');
	mkdirSync(workDir, { recursive: true });
	const corpus = (await buildCorpus(await makeSelfie())).filter(
		(s) => s.drawn === s.expected && s.name.includes('green')
	);
	const order = ['png-green-1', 'jpeg-green-1', 'png-green-2', 'jpeg-green-2'];
	return order.map((name) => {
		const sheet = corpus.find((s) => s.name === name)!;
		const file = path.join(workDir, `corpus-${name}.${sheet.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
		writeFileSync(file, sheet.image);
		return file;
	});
}

async function runChild(which: 'cut' | 'floor'): Promise<void> {
	const sheets = process.argv.slice(3);
	sharp.cache(false);
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	const perPack = [sheets.slice(0, 2), sheets.slice(2, 4)];
	const counts = await Promise.all(
		perPack.map(async (pack) => {
			let n = 0;
			for (const file of pack) n += which === 'cut' ? await cutOne(file) : await floorOne(file);
			return n;
		})
	);
	const stickers = counts.reduce((a, b) => a + b, 0);
	const ms = Math.round(performance.now() - started);
	const cpu = process.cpuUsage(cpuBefore);
	const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
	console.log(JSON.stringify({ ms, cpuMs, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), stickers }));
}

async function cutOne(file: string): Promise<number> {
	const { cutSheet } = await import('../src/lib/server/media/sticker-cutter.ts');
	const result = await cutSheet(readFileSync(file), { expected: 6 });
	if (!result.diagnosis.ok) throw new Error(result.diagnosis.reason);
	return result.stickers.length;
}

/** The least any cutter must do: decode the sheet, cut six cells, resize each to 512, encode PNG. */
async function floorOne(file: string): Promise<number> {
	const input = readFileSync(file);
	const { width = 0, height = 0 } = await sharp(input).metadata();
	const cw = Math.floor(width / 3);
	const ch = Math.floor(height / 2);
	const decoded = await sharp(input).raw().toBuffer({ resolveWithObject: true });
	for (let i = 0; i < 6; i++) {
		await sharp(decoded.data, { raw: decoded.info })
			.extract({ left: (i % 3) * cw, top: Math.floor(i / 3) * ch, width: cw, height: ch })
			.resize(512, 512, { fit: 'inside' })
			.png({ compressionLevel: 6 })
			.toBuffer();
	}
	return 6;
}
