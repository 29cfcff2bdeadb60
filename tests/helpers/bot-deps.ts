import type { Config } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger, type Logger } from '../../src/lib/server/log/logger.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';
import type { Clock } from '../../src/lib/server/time/clock.ts';
import { loadPseudonymKey } from '../../src/lib/server/lifecycle/pseudonym.ts';
import { MessageHistoryWriter } from '../../src/lib/server/messages/history-writer.ts';
import type { BotDeps } from '../../src/worker/bot/context.ts';
import { localFileStore } from './file-store.ts';
import { sendPacingFor } from './send-pacing.ts';

/**
 * The bot's deps as the worker's main.ts hands them to createBot, for tests that build the
 * production bot: the file store on the config's DATA_DIR, the settings in force read from the
 * database, the send budget with its real limits (sendPacingFor), and the message history's writer
 * (a test that closes the database while the bot may still be recording waits for
 * `deps.history.idle()` first, as the worker's stop does). Silent unless given a logger.
 */
export function botDepsFor(db: Db, clock: Clock, config: Config, logger: Logger = silentLogger): BotDeps {
	return {
		db,
		clock,
		logger,
		config,
		fileStore: localFileStore(config.dataDir),
		runtime: new RuntimeSettings({ db, clock, config }),
		sendPacing: sendPacingFor(db, clock),
		history: historyWriterFor(db, config, logger)
	};
}

/** The message history's writer as main.ts builds it: on the database, naming erased guests with DATA_DIR's key. */
export function historyWriterFor(db: Db, config: Config, logger: Logger = silentLogger): MessageHistoryWriter {
	return new MessageHistoryWriter({ db, logger, pseudonymKey: loadPseudonymKey(config.dataDir) });
}
