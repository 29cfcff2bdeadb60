import type { Db } from '../db/client.ts';
import { readSetting, writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The bot's @username, learnt by the worker from getMe and kept in `settings.bot_username` so the
 * web process (which never calls Telegram) can build the kiosk's deep link.
 */
const KEY = 'bot_username';
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

export async function readBotUsername(db: Db): Promise<string | null> {
	const value = await readSetting(db, KEY);
	return value && USERNAME.test(value) ? value : null;
}

/** Writes the username when it differs from what is stored; returns whether it wrote. */
export async function rememberBotUsername(db: Db, clock: Clock, username: string | undefined): Promise<boolean> {
	if (!username || !USERNAME.test(username)) return false;
	if ((await readSetting(db, KEY)) === username) return false;
	await writeSetting(db, clock, KEY, username);
	return true;
}

export function deepLinkFor(botUsername: string, token: string): string {
	return `https://t.me/${botUsername}?start=${token}`;
}
