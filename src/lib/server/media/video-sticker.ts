import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { figureSource, MOTION_FPS, MOTION_FRAMES, renderFrame, type Motion } from './sticker-motion.ts';
import { checkVideoSticker, VIDEO_STICKER_LIMITS, type VideoStickerFacts } from './video-sticker-probe.ts';
import { runTool, VideoToolFailed } from './video-tool.ts';

/**
 * A still sticker made into a Telegram video sticker: its frames drawn one at a time into a raw
 * file in a temporary folder (memory stays at one frame), encoded by ffmpeg with libvpx-vp9 into
 * WEBM with alpha (yuva420p), each try checked with ffprobe. The CRF ladder trades quality for
 * size until the file fits 256 KB; a clip that fits at no rung is not used (the caller keeps the
 * still sticker). The folder is removed whatever happens.
 */
export interface VideoStickerTools {
	ffmpeg: string;
	ffprobe: string;
	/** Per ffmpeg/ffprobe run; the job's signal stops them too. */
	timeoutMs: number;
	/** The size a clip must fit (Telegram's 256 KB; tests lower it to reach the fallback). */
	maxBytes: number;
	/** CRF values tried in turn, best quality first. */
	crfLadder: readonly number[];
}

/** Measured on offline stickers: CRF 34 gave 290–420 KB, 46 gave 140–200 KB, 52 about 130 KB. */
export const DEFAULT_CRF_LADDER = [46, 52, 58, 63] as const;

export function videoStickerTools(overrides: Partial<VideoStickerTools> = {}): VideoStickerTools {
	return {
		ffmpeg: 'ffmpeg',
		ffprobe: 'ffprobe',
		timeoutMs: 30_000,
		maxBytes: VIDEO_STICKER_LIMITS.maxBytes,
		crfLadder: DEFAULT_CRF_LADDER,
		...overrides
	};
}

/**
 * Whether ffmpeg with libvpx-vp9 and ffprobe can be run: null when they can, else the sentence
 * for the worker's start-up warning.
 */
export async function missingVideoTools(tools: VideoStickerTools): Promise<string | null> {
	const options = { signal: new AbortController().signal, timeoutMs: 10_000 };
	try {
		const { stdout } = await runTool(tools.ffmpeg, ['-hide_banner', '-encoders'], options);
		if (!stdout.toString('utf8').includes('libvpx-vp9')) return `${tools.ffmpeg} has no libvpx-vp9 encoder`;
		await runTool(tools.ffprobe, ['-version'], options);
		return null;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

export type VideoStickerResult =
	{ ok: true; webm: Buffer; crf: number; facts: VideoStickerFacts } | { ok: false; reason: string };

export async function makeVideoSticker(
	tools: VideoStickerTools,
	png: Buffer,
	motion: Motion,
	signal: AbortSignal
): Promise<VideoStickerResult> {
	const dir = await mkdtemp(path.join(tmpdir(), 'video-sticker-'));
	try {
		const figure = await figureSource(png);
		const frames = path.join(dir, 'frames.rgba');
		const size = { width: figure.width, height: figure.height };
		let last = 'no CRF to try';
		for (const [rung, crf] of tools.crfLadder.entries()) {
			const out = path.join(dir, `crf${crf}.webm`);
			// The first rung encodes while the frames are drawn (two cores busy at once); they are kept
			// in a raw file meanwhile, so a smaller rung re-encodes them without drawing them again.
			const drawn =
				rung === 0
					? (stdin: Writable) =>
							writeFrames(frames, MOTION_FRAMES, (i) => renderFrame(figure, motion, i), signal, stdin)
					: undefined;
			await encodeFrames(tools, { frames: drawn ? 'pipe:0' : frames, out, ...size, crf }, signal, drawn);
			const check = await checkVideoSticker(tools.ffprobe, out, { ...tools, signal, maxBytes: tools.maxBytes });
			if (check.ok) return { ok: true, webm: await readFile(out), crf, facts: check.facts };
			last = `CRF ${crf}: ${check.problems.join('; ')}`;
		}
		return { ok: false, reason: `no encoding met Telegram's video sticker rules (${last})` };
	} catch (error) {
		if (signal.aborted) throw signal.reason;
		if (error instanceof VideoToolFailed) return { ok: false, reason: error.message };
		throw error;
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** Raw RGBA frames appended to one file (and to `also`, ffmpeg's input), a frame or two in memory at a time. */
export async function writeFrames(
	file: string,
	count: number,
	frame: (i: number) => Promise<Buffer>,
	signal: AbortSignal,
	also?: Writable
): Promise<void> {
	const stream = createWriteStream(file);
	// The next frame is drawn while this one is written (sharp works on its own threads): a frame
	// or two in memory, both cores busy.
	let next: Promise<Buffer> | null = null;
	try {
		next = count > 0 ? frame(0) : null;
		for (let i = 0; i < count; i++) {
			signal.throwIfAborted();
			const bytes = await next!;
			next = i + 1 < count ? frame(i + 1) : null;
			const waits = [stream, also].filter((s): s is Writable => !!s && !s.write(bytes));
			await Promise.all(waits.map((s) => drained(s)));
		}
	} finally {
		// Left behind by an abort or a failed write: its own failure must not go unhandled.
		next?.catch(() => undefined);
		stream.end();
		await once(stream, 'close');
	}
}

/** Resolves when a stream wants more, or has closed (an encoder that died is told by its exit code). */
function drained(stream: Writable): Promise<void> {
	if (stream.destroyed || stream.writableEnded) return Promise.resolve();
	return new Promise((resolve) => {
		const done = () => {
			stream.off('drain', done);
			stream.off('close', done);
			resolve();
		};
		stream.once('drain', done);
		stream.once('close', done);
	});
}

/** One ffmpeg run: raw frames → VP9 WEBM with alpha, no audio, at one CRF (constant quality). */
export async function encodeFrames(
	tools: Pick<VideoStickerTools, 'ffmpeg' | 'timeoutMs'>,
	input: { frames: string; out: string; width: number; height: number; crf: number },
	signal: AbortSignal,
	feed?: (stdin: Writable) => Promise<void>
): Promise<void> {
	const args = [
		...['-hide_banner', '-loglevel', 'error', '-y'],
		...['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${input.width}x${input.height}`, '-framerate', `${MOTION_FPS}`],
		...['-i', input.frames, '-an'],
		...['-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p', '-b:v', '0', '-crf', `${input.crf}`],
		// Speed over size: the encode is on the guest's wait (realtime/8 measured ~6× less CPU than good/5; the CRF ladder takes care of the size).
		// One thread: as fast here (0.4 s a clip), 10 MB less, and the other core draws the frames meanwhile.
		...['-deadline', 'realtime', '-cpu-used', '8', '-threads', '1'],
		// No look-ahead: measured 180 → 120 MB of ffmpeg's memory for the same size.
		...['-lag-in-frames', '0'],
		...['-f', 'webm', input.out]
	];
	await runTool(tools.ffmpeg, args, { signal, timeoutMs: tools.timeoutMs, feed });
}
