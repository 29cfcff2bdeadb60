import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { open, seal, sealedSchema } from './secret-box.ts';
import { readJsonSetting, writeSetting } from './settings.repository.ts';

/**
 * The tokens of bots the worker switched away from (a new bot's token saved on the console).
 * Telegram lets only the bot that made a sticker set delete it, so a guest's /forget after the
 * switch needs the old bot's token to remove the sets it made. Kept sealed like every console
 * secret (secret-box.ts), under `retired-bot.<username>`; never shown anywhere.
 */
const rowSchema = sealedSchema.extend({ retiredAt: z.string() });
const keyOf = (username: string) => `retired-bot.${username.toLowerCase()}`;

/**
 * Keeps a bot's token; the token already kept for it is left as it is (each worker start that
 * finds the environment's bot replaced asks to keep it again, worker/bot/environment-bot.ts).
 */
export async function keepRetiredBotToken(
	db: Db,
	clock: Clock,
	secretKey: Buffer,
	bot: { username: string; token: string }
): Promise<void> {
	if ((await retiredBotToken(db, secretKey, bot.username)) === bot.token) return;
	const row = { ...seal(secretKey, bot.token), retiredAt: clock.now().toISOString() };
	await writeSetting(db, clock, keyOf(bot.username), JSON.stringify(row));
}

/** The token kept for a bot given up earlier, or null (never switched from, or the key cannot open it). */
export async function retiredBotToken(db: Db, secretKey: Buffer, username: string): Promise<string | null> {
	const row = await readJsonSetting(db, keyOf(username), rowSchema);
	return row ? open(secretKey, row) : null;
}
