import { Bot } from 'grammy';
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
