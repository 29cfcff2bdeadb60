import type { Db } from '../../lib/server/db/client.ts';
import { rememberBotUsername } from '../../lib/server/guests/bot-identity.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/** The bot's identity once getMe has answered (grammY's Bot: isInited, botInfo). */
export interface BotIdentity {
	isInited(): boolean;
	readonly botInfo: { username: string };
}

/**
 * Publishes the bot's @username, learnt from getMe, for the web process's kiosk QR codes (the web
 * never calls Telegram). A pass writes it only when it is known and not yet published by this worker.
 */
export function botUsernamePublisher(deps: {
	db: Db;
	clock: Clock;
	logger: Logger;
	bot: BotIdentity;
}): () => Promise<void> {
	let published: string | undefined;
	return async () => {
		const username = deps.bot.isInited() ? deps.bot.botInfo.username : undefined;
		if (!username || username === published) return;
		await rememberBotUsername(deps.db, deps.clock, username);
		published = username;
		deps.logger.info({ username }, 'bot username published for kiosk QR codes');
	};
}
