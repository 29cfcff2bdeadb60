import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { STICKER_VARIANTS } from './sticker-variants.ts';
import {
	animatedStickerNumbers,
	MOTION_FRAMES,
	motionOf,
	renderFrame,
	figureSource,
	type Motion
} from './sticker-motion.ts';
import { makeVideoSticker, missingVideoTools, videoStickerTools } from './video-sticker.ts';
import { judge, VIDEO_STICKER_LIMITS } from './video-sticker-probe.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'video-sticker-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A cut sticker as the cutter leaves it: 512 px tall, narrower, a white-outlined figure on transparency. */
async function stillSticker(width = 420): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="512">
		<ellipse cx="${width / 2}" cy="200" rx="140" ry="160" fill="#f2b48a" stroke="#fff" stroke-width="12"/>
		<circle cx="${width / 2 - 50}" cy="180" r="16" fill="#222"/><circle cx="${width / 2 + 50}" cy="180" r="16" fill="#222"/>
		<rect x="40" y="400" width="${width - 80}" height="90" rx="40" fill="#3a6" stroke="#fff" stroke-width="10"/></svg>`;
	return sharp(Buffer.from(svg)).png().toBuffer();
}

/** What ffprobe says about a file, read here on its own (not through the code under test). */
function probe(file: string) {
	const out = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
	return JSON.parse(out.toString('utf8')) as {
		streams: {
			codec_type: string;
			codec_name: string;
			width: number;
			height: number;
			avg_frame_rate: string;
			tags?: Record<string, string>;
		}[];
		format: { format_name: string; duration: string; size: string };
	};
}

const live = () => new AbortController().signal;

describe('video stickers made from a still sticker', () => {
	it.each(['wave', 'bounce', 'squash', 'sparkle'] as Motion[])(
		'%s: a WEBM Telegram takes — VP9 with alpha, 512 px side, ≤ 3 s, ≤ 30 fps, ≤ 256 KB, no audio',
		async (motion) => {
			const made = await makeVideoSticker(videoStickerTools(), await stillSticker(), motion, live());
			if (!made.ok) throw new Error(made.reason);
			const file = path.join(dir, `${motion}.webm`);
			writeFileSync(file, made.webm);
			const { streams, format } = probe(file);
			const video = streams.filter((s) => s.codec_type === 'video');
			expect(video).toHaveLength(1);
			expect(streams.filter((s) => s.codec_type === 'audio')).toHaveLength(0);
			expect(format.format_name).toContain('webm');
			expect(video[0]!.codec_name).toBe('vp9');
			expect(video[0]!.tags?.ALPHA_MODE ?? video[0]!.tags?.alpha_mode).toBe('1');
			expect([video[0]!.width, video[0]!.height]).toEqual([420, 512]);
			expect(Number(format.duration)).toBeLessThanOrEqual(3);
			const [num, den] = video[0]!.avg_frame_rate.split('/').map(Number);
			expect(num! / den!).toBeLessThanOrEqual(30);
			expect(Number(format.size)).toBeLessThanOrEqual(256 * 1024);
			expect(made.webm.length).toBe(Number(format.size));
		},
		60_000
	);

	it('keeps the background transparent and the figure inside the canvas in every pose', async () => {
		const figure = await figureSource(await stillSticker(512));
		for (const i of [0, Math.floor(MOTION_FRAMES / 8), Math.floor(MOTION_FRAMES / 4)]) {
			const frame = await renderFrame(figure, 'wave', i);
			expect(frame.length).toBe(512 * 512 * 4);
			// The corners stay see-through: the motion never paints a background.
			for (const [x, y] of [
				[0, 0],
				[511, 0],
				[0, 511],
				[511, 511]
			])
				expect(frame[(y! * 512 + x!) * 4 + 3]).toBe(0);
			const stats = await sharp(frame, { raw: { width: 512, height: 512, channels: 4 } }).stats();
			expect(stats.channels[3]!.max).toBe(255);
		}
	});

	it('falls back when no rung of the CRF ladder fits the size, saying why', async () => {
		const tools = videoStickerTools({ maxBytes: 2_000, crfLadder: [50, 63] });
		const made = await makeVideoSticker(tools, await stillSticker(), 'bounce', live());
		expect(made.ok).toBe(false);
		if (!made.ok) expect(made.reason).toMatch(/CRF 63: \d+ bytes, over 2000/);
	}, 60_000);

	it('falls back when ffmpeg is missing, and the start-up check names it', async () => {
		const tools = videoStickerTools({ ffmpeg: path.join(dir, 'no-ffmpeg') });
		expect(await missingVideoTools(tools)).toMatch(/no-ffmpeg could not run: ENOENT/);
		expect(await missingVideoTools(videoStickerTools())).toBeNull();
		const made = await makeVideoSticker(tools, await stillSticker(), 'wave', live());
		expect(made).toEqual({ ok: false, reason: expect.stringMatching(/could not run/) });
	});

	it('stops with the job: an aborted job throws its own reason, not a fallback', async () => {
		const controller = new AbortController();
		const reason = new Error('lease lost');
		controller.abort(reason);
		await expect(makeVideoSticker(videoStickerTools(), await stillSticker(), 'wave', controller.signal)).rejects.toBe(
			reason
		);
	});
});

describe('the rules a clip is checked against before upload', () => {
	const good = {
		codec: 'vp9',
		width: 512,
		height: 400,
		seconds: 2,
		fps: 24,
		bytes: 100_000,
		alpha: true,
		audioStreams: 0,
		container: 'matroska,webm'
	};
	it('passes a clip inside every limit and names each broken rule', () => {
		expect(judge(good, VIDEO_STICKER_LIMITS.maxBytes)).toEqual({ ok: true, problems: [] });
		const bad = {
			...good,
			codec: 'vp8',
			width: 500,
			height: 400,
			seconds: 3.2,
			fps: 60,
			bytes: 300_000,
			alpha: false,
			audioStreams: 1
		};
		const { ok, problems } = judge(bad, VIDEO_STICKER_LIMITS.maxBytes);
		expect(ok).toBe(false);
		expect(problems).toEqual([
			'codec vp8, not VP9',
			'500×400 px, one side must be exactly 512 and the other ≤ 512',
			'3.2 s, over 3 s',
			'60 fps, over 30',
			'300000 bytes, over 262144',
			'no alpha channel (the background would not be transparent)',
			'1 audio stream(s)'
		]);
	});
});

describe('which stickers move', () => {
	it('moves none at 0, all twelve at 12, and three by default (hello, love, party) with fitting motions', () => {
		expect(animatedStickerNumbers(0)).toEqual([]);
		expect(animatedStickerNumbers(12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(animatedStickerNumbers(99)).toHaveLength(12);
		const three = animatedStickerNumbers(3);
		expect(three.map((n) => STICKER_VARIANTS[n - 1]!.key)).toEqual(['hello', 'love', 'party']);
		expect(motionOf(three[0]!)).toBe('wave');
	});
});
