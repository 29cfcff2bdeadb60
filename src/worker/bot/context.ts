import type { Context } from 'grammy';
import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import type { Locale } from '../../lib/i18n/locale.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { MessageHistoryWriter } from '../../lib/server/messages/history-writer.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { RuntimeSettings } from '../../lib/server/settings/runtime-settings.ts';
import type { SendPacing } from '../../lib/server/telegram/send-budget-api.ts';

/** What every handler may use; given once to createBot, never imported as a singleton. */
export interface BotDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	config: Config;
	/** Guest files and catalogue pictures: the process's one store (FILE_STORE). */
	fileStore: FileStore;
	/** The settings in force (console Settings, else the environment), read through a short cache. */
	runtime: RuntimeSettings;
	/** The bot's one send budget: every reply and every call on bot.api waits for its place (main.ts). */
	sendPacing: SendPacing;
	/**
	 * The process's one writer of the message history: every bot it builds (a switched token makes a
	 * new one) records through it, so stopping can wait for what is still being written before the
	 * database closes (main.ts).
	 */
	history: MessageHistoryWriter;
}

export type BotContext = Context & { locale: Locale; deps: BotDeps };
