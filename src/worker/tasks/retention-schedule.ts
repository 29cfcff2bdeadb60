import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { resolveBackupDir } from '../../lib/server/backup/backup-files.ts';
import { loadPseudonymKey } from '../../lib/server/lifecycle/pseudonym.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { Scheduler } from '../scheduler.ts';
import { backupTask } from './backup.task.ts';
import { retentionTask } from './retention.task.ts';
import { ttlSweepTask } from './ttl-sweep.task.ts';

/** The data-lifecycle tasks of the worker (docs/data-lifecycle.md): TTL sweep, retention, daily backup. */
export function scheduleLifecycleTasks(scheduler: Scheduler, config: Config, db: Db, clock: Clock, logger: Logger, fileStore: FileStore): void {
	const dataDir = config.dataDir;
	scheduler.add(ttlSweepTask({ db, clock, logger, fileStore, ttlHours: config.PHOTO_TTL_HOURS }));
	const pseudonymKey = loadPseudonymKey(dataDir);
	scheduler.add(retentionTask({ db, clock, logger, fileStore, dbPath: config.dbPath, pseudonymKey, retentionDays: config.GUEST_RETENTION_DAYS }));
	scheduler.add(backupTask({ db, clock, logger, database: config.database, backupDir: resolveBackupDir(config) }));
}
