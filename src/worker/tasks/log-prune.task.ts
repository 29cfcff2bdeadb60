import type { Db } from '../../lib/server/db/client.ts';
import { pruneLogEntries } from '../../lib/server/log/log-retention.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { HOUR, type Clock } from '../../lib/server/time/clock.ts';
import type { ScheduledTask } from '../scheduler.ts';

/** Keeps `log_entries` to its cap (log-retention.ts) once an hour and at start. */
export function logPruneTask(deps: { db: Db; clock: Clock; logger: Logger }): ScheduledTask {
	return {
		name: 'log-prune',
		everyMs: HOUR,
		runAtStart: true,
		oncePerPeriod: true,
		run: async () => {
			const removed = await pruneLogEntries(deps.db, deps.clock);
			if (removed.byAge + removed.byCount > 0) deps.logger.info(removed, 'old log entries removed');
		}
	};
}
