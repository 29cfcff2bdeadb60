import type { Db } from '../../lib/server/db/client.ts';
import { pruneLogEntries } from '../../lib/server/log/log-retention.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/** Keeps `log_entries` to its cap (log-retention.ts); worker/schedule.ts runs it hourly and at start. */
export async function pruneLogs(deps: { db: Db; clock: Clock; logger: Logger }): Promise<void> {
	const removed = await pruneLogEntries(deps.db, deps.clock);
	if (removed.byAge + removed.byCount > 0) deps.logger.info(removed, 'old log entries removed');
}
