import { Api } from 'grammy';
import { packBotUsername } from '../../../lib/server/jobs/delivery/pack-name.ts';
import { retiredBotToken } from '../../../lib/server/settings/retired-bots.ts';
import { loadSettingsSecretKey } from '../../../lib/server/settings/secret-box.ts';
import type { TelegramApi } from '../../../lib/server/telegram/api.ts';
import type { BotDeps } from '../context.ts';

export type SetDeleterClient = Pick<TelegramApi, 'deleteStickerSet'>;

/**
 * The client that may delete a sticker set, or null when none can: Telegram lets only the bot
 * that made a set delete it (any other bot gets STICKERSET_INVALID, as for a set that is gone).
 */
export type SetDeleter = (setName: string) => Promise<SetDeleterClient | null>;

/**
 * The running bot for its own sets (its client waits for the send budget like every call);
 * for a set of a bot the worker switched away from, that bot's kept token (retired-bots.ts);
 * null when no token of the set's bot is kept.
 */
export function botSetDeleters(deps: BotDeps, current: SetDeleterClient, currentUsername: string): SetDeleter {
	// Read once per /forget, and only when a set of another bot comes up (most guests have none).
	let secretKey: Buffer | undefined;
	return async (setName) => {
		const owner = packBotUsername(setName);
		if (!owner || owner.toLowerCase() === currentUsername.toLowerCase()) return current;
		secretKey ??= loadSettingsSecretKey(deps.config, deps.clock);
		const token = await retiredBotToken(deps.db, secretKey, owner);
		return token ? new Api(token, { apiRoot: deps.config.telegram.apiRoot }) : null;
	};
}
