import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { deleteQuietThrottleRows } from './login-throttle.ts';
import { deleteExpiredOperatorSessions } from './operator-session.ts';

/** Hourly in the worker: expired console sessions and throttle rows quiet for a day go away. */
export async function cleanConsoleAuthRows(db: Db, clock: Clock, logger: Logger): Promise<void> {
	const sessions = await deleteExpiredOperatorSessions(db, clock);
	const throttle = await deleteQuietThrottleRows(db, clock);
	if (sessions + throttle > 0) logger.info({ sessions, throttle }, 'console sign-in rows cleaned');
}
