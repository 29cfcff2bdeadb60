import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawOfflineSheets } from './_offline-sheet.ts';
import { rssMb } from './_rss.ts';

/**
 * Time and peak RSS of making a pack's 3 animated stickers (issue #28) from 3 cut stickers, as the
 * animate stage does (frames drawn with sharp one at a time, ffmpeg libvpx-vp9 at the first CRF
 * rung, ffprobe's check), against the floor: a bare ffmpeg encode of the same frames with the same
 * encoder settings and nothing else (no drawing, no check). Each side runs in its own Node process;
 * its peak RSS is the whole process tree's (Node + ffmpeg/ffprobe), sampled every 10 ms.
 * Targets: peak ≤ 300 MB; ≤ 3 s added to photo → link on 2 cores.
 *
 *   npm run bench -- generation-animate
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const workDir = path.join(here, '..', '.tmp', 'bench-animate');
const mode = process.argv[2];

if (mode === 'animate' || mode === 'floor') await runChild(mode);
else await runParent();

async function runParent(): Promise<void> {
	const stickers = await prepareStickers();
	await prepareFrames(stickers);
	const floor = await measure('floor');
	const animate = await measure('animate');
	console.log(`3 animated stickers from cut stickers of ${stickers.map((s) => s.size).join(', ')} px`);
	console.log(`floor (bare ffmpeg encode of the same frames): ${floor.ms} ms, peak RSS ${floor.peakRssMb} MB`);
	console.log(
		`animate stage (draw frames, encode, ffprobe check): ${animate.ms} ms (CPU of Node ${animate.cpuMs} ms), peak RSS ${animate.peakRssMb} MB, ${animate.bytes.join(' + ')} bytes`
	);
	console.log(
		`time ratio ${(animate.ms / floor.ms).toFixed(2)}×; added to photo → link ${(animate.ms / 1000).toFixed(1)} s (target ≤ 3 s), peak ${animate.peakRssMb} MB (target ≤ 300 MB)`
	);
}

/** Three stickers cut from an offline sheet, as the pipeline has them before `animate`. */
async function prepareStickers(): Promise<{ file: string; size: string }[]> {
	const sharp = (await import('sharp')).default;
	const { cutSheet } = await import('../src/lib/server/media/sticker-cutter.ts');
	const { animatedStickerNumbers } = await import('../src/lib/server/media/sticker-motion.ts');
	mkdirSync(workDir, { recursive: true });
	const [sheet] = await drawOfflineSheets([
		{ firstVariant: 0, style: 'cartoon', palette: 'outfit0', outfit: 'astronaut' }
	]);
	const cut = await cutSheet(sheet!, { expected: 6 });
	if (!cut.diagnosis.ok) throw new Error(cut.diagnosis.reason);
	// The default three (hello, love, party) are not all on this sheet: the first three cut stand in.
	return Promise.all(
		animatedStickerNumbers(3).map(async (n, i) => {
			const file = path.join(workDir, `sticker_${n}.png`);
			writeFileSync(file, cut.stickers[i]!);
			const meta = await sharp(cut.stickers[i]!).metadata();
			return { file, size: `${meta.width}×${meta.height}` };
		})
	);
}

/** The frames the floor encodes: the same ones the animate stage draws. */
async function prepareFrames(stickers: { file: string }[]): Promise<void> {
	const { figureSource, motionOf, renderFrame, MOTION_FRAMES } =
		await import('../src/lib/server/media/sticker-motion.ts');
	const { writeFrames } = await import('../src/lib/server/media/video-sticker.ts');
	for (const { file } of stickers) {
		const n = Number(/sticker_(\d+)/.exec(file)![1]);
		const figure = await figureSource(readFileSync(file));
		const out = file.replace(/\.png$/, `.${figure.width}x${figure.height}.rgba`);
		await writeFrames(out, MOTION_FRAMES, (i) => renderFrame(figure, motionOf(n), i), new AbortController().signal);
	}
}

interface Figures {
	ms: number;
	cpuMs: number;
	peakRssMb: number;
	bytes: number[];
}

/** Runs one side in its own process, sampling the RSS of its whole tree (ffmpeg is a grandchild). */
function measure(which: 'animate' | 'floor'): Promise<Figures> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), which], {
			stdio: ['ignore', 'pipe', 'inherit']
		});
		let peak = 0;
		const timer = setInterval(() => (peak = Math.max(peak, treeRssMb(child.pid))), 10);
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
		child.on('close', (code) => {
			clearInterval(timer);
			if (code !== 0) return reject(new Error(`${which} exited with ${code}`));
			const figures = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Omit<Figures, 'peakRssMb'>;
			resolve({ ...figures, peakRssMb: Math.round(peak) });
		});
	});
}

function treeRssMb(pid: number | undefined): number {
	if (pid === undefined) return 0;
	let total = rssMb(pid);
	try {
		for (const task of readdirSync(`/proc/${pid}/task`)) {
			const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
			for (const kid of kids ? kids.split(' ') : []) total += treeRssMb(Number(kid));
		}
	} catch {
		// The process ended between two reads.
	}
	return total;
}

async function runChild(which: 'animate' | 'floor'): Promise<void> {
	const sharp = (await import('sharp')).default;
	sharp.cache(false);
	const { makeVideoSticker, videoStickerTools, encodeFrames, DEFAULT_CRF_LADDER } =
		await import('../src/lib/server/media/video-sticker.ts');
	const { motionOf } = await import('../src/lib/server/media/sticker-motion.ts');
	const files = readdirSync(workDir).sort();
	const signal = new AbortController().signal;
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	const bytes: number[] = [];
	for (const png of files.filter((f) => f.endsWith('.png'))) {
		const n = Number(/sticker_(\d+)/.exec(png)![1]);
		if (which === 'animate') {
			const made = await makeVideoSticker(
				videoStickerTools(),
				readFileSync(path.join(workDir, png)),
				motionOf(n),
				signal
			);
			if (!made.ok) throw new Error(made.reason);
			bytes.push(made.webm.length);
		} else {
			const raw = files.find((f) => f.startsWith(`sticker_${n}.`) && f.endsWith('.rgba'))!;
			const [width, height] = /\.(\d+)x(\d+)\.rgba$/.exec(raw)!.slice(1).map(Number);
			const out = path.join(workDir, `floor_${n}.webm`);
			await encodeFrames(
				{ ffmpeg: 'ffmpeg', timeoutMs: 60_000 },
				{ frames: path.join(workDir, raw), out, width: width!, height: height!, crf: DEFAULT_CRF_LADDER[0] },
				signal
			);
			bytes.push(readFileSync(out).length);
		}
	}
	const ms = Math.round(performance.now() - started);
	const cpu = process.cpuUsage(cpuBefore);
	console.log(JSON.stringify({ ms, cpuMs: Math.round((cpu.user + cpu.system) / 1000), bytes }));
}
