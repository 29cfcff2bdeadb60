import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { eraseInactiveGuests, pseudonymiseOrphanAudit } from '../../lib/server/lifecycle/guest-retention.ts';
import { deleteQuietThrottleRows } from '../../lib/server/auth/login-throttle.ts';
import { deleteExpiredOperatorSessions } from '../../lib/server/auth/operator-session.ts';
import { deleteUnlinkedSessions, removeOldBakFiles } from '../../lib/server/lifecycle/housekeeping.ts';
import { deleteExpiredRetiredSets } from '../../lib/server/lifecycle/retired-sticker-sets.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { deleteMessagesOlderThan } from '../../lib/server/messages/message-log.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

export interface RetentionTaskDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** Where erased guests' files are: the process's one store. */
	fileStore: FileStore;
	dbPath: string;
	pseudonymKey: Buffer;
	retentionDays: number;
}

/**
 * Retention for the data no other clock removes: inactive guests, audit entries of long-reset
 * guests, sessions nobody linked, expired console sign-ins and quiet throttle counters, old
 * app.db.bak-* copies, retired sticker-set names past their year. Each step runs even if an
 * earlier one failed; the failure is logged and the next pass retries.
 */
export async function runRetention(deps: RetentionTaskDeps): Promise<void> {
	const steps: [string, () => Promise<number>][] = [
		['guestsErased', () => eraseInactiveGuests(deps)],
		['orphanAuditPseudonymised', () => pseudonymiseOrphanAudit(deps)],
		['unlinkedSessionsDeleted', () => deleteUnlinkedSessions(deps.db, deps.clock)],
		['operatorSessionsDeleted', () => deleteExpiredOperatorSessions(deps.db, deps.clock)],
		['throttleRowsDeleted', () => deleteQuietThrottleRows(deps.db, deps.clock)],
		['bakFilesRemoved', () => removeOldBakFiles(deps.dbPath, deps.clock, deps.logger)],
		['botMessagesDeleted', () => deleteMessagesOlderThan(deps.db, deps.clock, deps.retentionDays)],
		['retiredStickerSetsDeleted', () => deleteExpiredRetiredSets(deps.db, deps.clock)]
	];
	const summary: Record<string, number | string> = {};
	for (const [name, step] of steps) {
		try {
			summary[name] = await step();
		} catch (error) {
			summary[name] = 'failed';
			deps.logger.error({ err: error, step: name }, 'retention step failed; will retry next pass');
		}
	}
	deps.logger.info({ ...summary, retentionDays: deps.retentionDays }, 'retention pass done');
}
