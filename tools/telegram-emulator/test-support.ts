import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Bot, GrammyError, type Api } from 'grammy';
import sharp from 'sharp';
import { createTelegramEmulator, type TelegramEmulator, type TelegramEmulatorOptions } from './server.ts';

// Shared by the emulator's specs and its browser test: a fresh in-memory emulator, a grammY bot
// pointed at it, and real images made with sharp.

export const TEST_TOKEN = '7000000001:TEST-token_for-the-emulator';

export function startEmulator(options: TelegramEmulatorOptions = {}): Promise<TelegramEmulator> {
	return createTelegramEmulator({ port: 0, ...options });
}

export function botFor(emulator: TelegramEmulator, token = TEST_TOKEN): Bot {
	return new Bot(token, { client: { apiRoot: emulator.url } });
}

/** A solid PNG of the given size (transparent corners would not change any check). */
export function makePng(width: number, height: number, hue = 120): Promise<Buffer> {
	return sharp({
		create: { width, height, channels: 4, background: { r: hue, g: 80, b: 200, alpha: 1 } }
	})
		.png()
		.toBuffer();
}

export interface VideoOptions {
	width?: number;
	height?: number;
	seconds?: number;
	fps?: number;
	/** vp9 in WEBM (a valid sticker), vp8 in WEBM, or h264 in MP4. */
	codec?: 'vp9' | 'vp8' | 'h264';
	/** Adds a sine-wave Opus/AAC audio track. */
	audio?: boolean;
	/** Full-frame noise at a high bitrate: a file far over 256 KB. */
	noise?: boolean;
	/** Written to a pipe, as a streaming encoder would: no duration in the WEBM header. */
	piped?: boolean;
}

const CODEC_ARGS = {
	vp9: ['-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p', '-deadline', 'realtime', '-cpu-used', '8', '-f', 'webm'],
	vp8: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-f', 'webm'],
	h264: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4']
} as const;

/** A small real video made by ffmpeg (a translucent colour, or noise), for video sticker checks. */
export async function makeVideo(options: VideoOptions = {}): Promise<Buffer> {
	const { width = 512, height = 512, seconds = 1, fps = 30, codec = 'vp9' } = options;
	const source = `color=c=red@0.5:s=${width}x${height}:d=${seconds}:r=${fps}`;
	const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', options.noise ? `${source},noise=alls=100:allf=t` : source];
	if (options.audio) args.push('-f', 'lavfi', '-i', `sine=d=${seconds}`, '-shortest');
	else args.push('-an');
	if (options.noise) args.push('-b:v', '8M');
	args.push(...CODEC_ARGS[codec]);
	const run = promisify(execFile);
	if (options.piped) {
		const { stdout } = await run('ffmpeg', [...args, 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 << 20 });
		return stdout;
	}
	const dir = await mkdtemp(join(tmpdir(), 'emulator-video-'));
	try {
		const file = join(dir, codec === 'h264' ? 'clip.mp4' : 'clip.webm');
		await run('ffmpeg', [...args, file]);
		return await readFile(file);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** A user who has already written to the bot, so the bot may write back. */
export async function startedUser(emulator: TelegramEmulator, firstName = 'Ann'): Promise<number> {
	const { message } = await emulator.control.sendUserMessage({
		user: { first_name: firstName },
		text: '/start'
	});
	return message.chat_id;
}

/** Runs grammY long polling until `stop()`; resolves once the bot is polling. */
export async function startPolling(bot: Bot): Promise<{ stop: () => Promise<void> }> {
	let done: Promise<void> = Promise.resolve();
	await new Promise<void>((resolve, reject) => {
		done = bot.start({ onStart: () => resolve(), timeout: 5 }).catch(reject);
	});
	return {
		stop: async () => {
			await bot.stop();
			await done;
		}
	};
}

type Maybe<T> = T | undefined | null | false;

/** Polls `probe` until it gives a value (not undefined/null/false); no fixed sleeps in tests. */
export async function waitFor<T>(probe: () => Promise<Maybe<T>> | Maybe<T>, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== null && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** A raw Bot API call, for asserting on the exact envelope Telegram would send. */
export async function rawCall(
	emulator: TelegramEmulator,
	method: string,
	body: Record<string, unknown> = {},
	token = TEST_TOKEN
): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(`${emulator.url}/bot${token}/${method}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A fresh emulator, a bot's Api on it and a user who has written to the bot: the specs' usual start. */
export async function emulatorWithStartedUser(): Promise<{ emulator: TelegramEmulator; api: Api; userId: number }> {
	const emulator = await startEmulator();
	return { emulator, api: botFor(emulator).api, userId: await startedUser(emulator) };
}

/** The GrammyError a call the emulator refuses is rejected with (anything else fails the test). */
export async function refusal(promise: Promise<unknown>): Promise<GrammyError> {
	const error = await promise.then(
		() => undefined,
		(caught: unknown) => caught
	);
	if (!(error instanceof GrammyError)) throw new Error(`expected a GrammyError, got ${String(error)}`);
	return error;
}
