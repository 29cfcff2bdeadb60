import type { DatabaseTarget } from '../config/config.ts';
import { placeOf } from '../db/database-place.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { createBackup, type BackupResult } from './create-backup.ts';
import { createPgBackup } from './create-pg-backup.ts';

/** One backup of the configured database: a snapshot of the database file, or the server's dump (pg_dump). */
export function takeBackup(
	database: DatabaseTarget,
	options: { backupDir: string; clock: Clock; logger: Logger }
): Promise<BackupResult> {
	const place = placeOf(database);
	return place.storage === 'server'
		? createPgBackup({ url: place.url, ...options })
		: createBackup({ dbPath: place.path, ...options });
}
