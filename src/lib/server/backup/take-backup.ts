import type { DatabaseTarget } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { createBackup, type BackupResult } from './create-backup.ts';
import { createPgBackup } from './create-pg-backup.ts';

/** One backup of the configured database: a snapshot of the SQLite file, or pg_dump of PostgreSQL. */
export function takeBackup(database: DatabaseTarget, options: { backupDir: string; clock: Clock; logger: Logger }): Promise<BackupResult> {
	return database.engine === 'postgresql' ? createPgBackup({ url: database.url, ...options }) : createBackup({ dbPath: database.path, ...options });
}
