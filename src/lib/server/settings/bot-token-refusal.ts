import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { deleteSetting, readJsonSetting, writeSetting } from './settings.repository.ts';

/**
 * `settings.bot_token_refused` = {at, sentence, token}: Telegram refused the bot token saved on the
 * console (getMe answered 401 or 404), so the worker kept the bot it had. The Settings and Health
 * pages show the sentence; the next token the worker switches to removes it. `token` is a short
 * digest of the refused token, never the token: a second worker (or a restart) that meets the same
 * refusal does not alert the admins again. Kept apart from the worker's Telegram code so the web
 * reads it without loading a Telegram client.
 */
const KEY = 'bot_token_refused';
const refusalSchema = z.object({ at: z.string(), sentence: z.string(), token: z.string() });
export type BotTokenRefusal = z.infer<typeof refusalSchema>;

/** Tells two tokens apart without keeping either (memory, the settings row, logs). */
export function tokenDigest(token: string): string {
	return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

export function readBotTokenRefusal(db: Db): Promise<BotTokenRefusal | null> {
	return readJsonSetting(db, KEY, refusalSchema);
}

/** Records the refusal; false when this token's refusal was recorded already (the admins were told). */
export async function recordBotTokenRefusal(db: Db, clock: Clock, token: string, sentence: string): Promise<boolean> {
	const digest = tokenDigest(token);
	if ((await readBotTokenRefusal(db))?.token === digest) return false;
	const row: BotTokenRefusal = { at: clock.now().toISOString(), sentence, token: digest };
	await writeSetting(db, clock, KEY, JSON.stringify(row));
	return true;
}

export async function clearBotTokenRefusal(db: Db): Promise<void> {
	await deleteSetting(db, KEY);
}
