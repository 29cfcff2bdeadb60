import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';

/** The console needs the recent past, not an archive: journald keeps the full story. */
export const LOG_KEEP_ROWS = 5000;
export const LOG_KEEP_DAYS = 14;

export interface LogRetention {
	keepRows: number;
	keepDays: number;
}

/**
 * Deletes log rows older than `keepDays`, then all but the newest `keepRows`, so a burst of
 * errors cannot grow the database without bound between two passes.
 */
export async function pruneLogEntries(
	db: Db,
	clock: Clock,
	retention: LogRetention = { keepRows: LOG_KEEP_ROWS, keepDays: LOG_KEEP_DAYS }
): Promise<{ byAge: number; byCount: number }> {
	const cutoff = new Date(clock.now().getTime() - retention.keepDays * DAY).toISOString();
	const byAge = (await db.logEntry.deleteMany({ where: { at: { lt: cutoff } } })).count;
	const firstDropped = await db.logEntry.findFirst({
		orderBy: { id: 'desc' },
		skip: retention.keepRows,
		select: { id: true }
	});
	const byCount = firstDropped ? (await db.logEntry.deleteMany({ where: { id: { lte: firstDropped.id } } })).count : 0;
	return { byAge, byCount };
}
