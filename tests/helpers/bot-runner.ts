import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger, type Logger } from '../../src/lib/server/log/logger.ts';
import type { Clock } from '../../src/lib/server/time/clock.ts';
import type { BotRunnerDeps } from '../../src/worker/bot/runner.ts';

/** The worker's default bound on updates handled at once (BOT_UPDATE_CONCURRENCY). */
export const DEFAULT_UPDATE_CONCURRENCY = 16;

/** What a BotRunner needs besides its bot, as the worker hands it in; no crash points. */
export function botRunnerDeps(
	db: Db,
	clock: Clock,
	logger: Logger = silentLogger,
	concurrency = DEFAULT_UPDATE_CONCURRENCY
): BotRunnerDeps {
	return { db, clock, logger, concurrency, crashPoint: () => undefined };
}
