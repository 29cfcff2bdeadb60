import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from '../../lib/server/log/logger.ts';
import { isTokenRefusal, probeBotToken } from '../../lib/server/telegram/bot-token.ts';

/** A bot token is `<bot id>:<secret>`: a token BotFather issued again (revoke) keeps the id. */
const botIdOf = (token: string): number => Number(token.split(':', 1)[0]);

export interface EnvironmentBotDeps {
	logger: Logger;
	apiRoot: string;
	/** Keeps a given-up bot's token (sealed, retired-bots.ts), as the switch does; the same token again writes nothing. */
	retireBot: (bot: { username: string; token: string }) => Promise<void>;
}

/**
 * A worker that starts with the console's token of bot B while TELEGRAM_BOT_TOKEN is bot A's never
 * switched away from A while running (the token was saved while it was down, or before tokens were
 * kept), so nothing kept A's token and a guest's /forget could not delete the sets A made. Here A's
 * token is kept once Telegram says it is another bot's and still valid. A refused token (revoked)
 * is never kept — it could delete nothing, and must not replace a working one kept by a switch.
 * Telegram unreachable, or the write failing, does not hold up the start: the next start asks again.
 */
export async function keepEnvironmentBot(
	deps: EnvironmentBotDeps,
	environment: string,
	inForce: UserFromGetMe
): Promise<void> {
	// The same bot under a rotated token: its sets are the running bot's own, nothing to keep.
	if (botIdOf(environment) === inForce.id) return;
	let envBot: UserFromGetMe;
	try {
		envBot = await probeBotToken(environment, deps.apiRoot);
	} catch (error) {
		if (isTokenRefusal(error)) {
			deps.logger.warn(
				{ status: error.error_code },
				'TELEGRAM_BOT_TOKEN is refused by Telegram: no token of that bot is kept, so /forget cannot delete sticker sets it made'
			);
		} else {
			deps.logger.warn(
				{ err: error },
				'could not ask Telegram whose TELEGRAM_BOT_TOKEN it is; asked again at the next start'
			);
		}
		return;
	}
	if (envBot.id === inForce.id) return;
	try {
		await deps.retireBot({ username: envBot.username, token: environment });
		deps.logger.info(
			{ kept: envBot.username, running: inForce.username },
			"the environment's bot is not the one running: its token is kept so /forget can delete the sets it made"
		);
	} catch (error) {
		deps.logger.warn({ err: error }, "could not keep the environment's bot token; tried again at the next start");
	}
}
