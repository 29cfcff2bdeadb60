import {
	clearBackupStarted,
	isBackupDue,
	recordBackupFailure,
	recordBackupStarted,
	recordBackupSuccess
} from '../../lib/server/backup/backup-status.ts';
import { takeBackup } from '../../lib/server/backup/take-backup.ts';
import type { DatabaseTarget } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

export interface BackupTaskDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	database: DatabaseTarget;
	backupDir: string;
}

/**
 * The worker's daily backup, checked every hour (worker/schedule.ts): taken when the last good backup (by this task,
 * `npm run backup` or the systemd timer) is about a day old — so with the timer installed the
 * worker stays idle, and without it backups still happen. On PostgreSQL it runs pg_dump. Failures are recorded for the console.
 * Of several workers only the one that claims the hour's period checks and dumps, at start too; a
 * dump still running when the next hour's worker checks is marked (backup_started) and not doubled.
 */
export async function runBackupIfDue(deps: BackupTaskDeps): Promise<'taken' | 'not-due'> {
	if (!(await isBackupDue(deps.db, deps.clock))) return 'not-due';
	await recordBackupStarted(deps.db, deps.clock);
	try {
		const result = await takeBackup(deps.database, {
			backupDir: deps.backupDir,
			clock: deps.clock,
			logger: deps.logger
		});
		await recordBackupSuccess(deps.db, deps.clock, result);
		return 'taken';
	} catch (error) {
		deps.logger.error({ err: error }, 'database backup failed; will retry next hour');
		await recordBackupFailure(deps.db, deps.clock, error);
		throw error;
	} finally {
		await clearBackupStarted(deps.db);
	}
}
