import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { readJsonSetting } from '../settings/settings.repository.ts';
import { LAST_BACKUP_FAILURE_KEY, type LastBackup } from './backup-status.ts';

/**
 * Why the last daily backup failed, as the Health page may tell it. The stored error
 * (`last_backup_failure`) holds server paths and tools' raw output, so it stays on the server: only
 * a known cause travels to the browser, and anything else is "unknown" (the worker's log has it).
 */
export type BackupFailureCause =
	'disk-full' | 'no-permission' | 'database-unreachable' | 'tool-missing' | 'check-failed' | 'unknown';

export interface BackupFailureView {
	at: string;
	cause: BackupFailureCause;
}

const storedFailureSchema = z.object({ at: z.string(), error: z.string() });

/** First match wins: a disk-full pg_dump says "pg_dump failed" too, so the specific causes come first. */
const CAUSES: [RegExp, BackupFailureCause][] = [
	[/ENOSPC|no space left on device|disk (is )?full/i, 'disk-full'],
	[/EACCES|EPERM|EROFS|permission denied|read-only file system/i, 'no-permission'],
	[/no pg_dump\b|ENOENT.*pg_dump|pg_dump.*not found/i, 'tool-missing'],
	[
		/ECONNREFUSED|could not connect|connection (to server )?.*(refused|failed)|cannot open the database/i,
		'database-unreachable'
	],
	[/integrity_check|not a database of this product/i, 'check-failed']
];

export function backupFailureCause(error: string): BackupFailureCause {
	return CAUSES.find(([pattern]) => pattern.test(error))?.[1] ?? 'unknown';
}

/** The last failed backup when it is newer than the last good one (an older failure was overcome); else null. */
export async function readBackupFailureSince(db: Db, lastGood: LastBackup | null): Promise<BackupFailureView | null> {
	const stored = await readJsonSetting(db, LAST_BACKUP_FAILURE_KEY, storedFailureSchema);
	if (!stored) return null;
	if (lastGood && Date.parse(lastGood.at) >= Date.parse(stored.at)) return null;
	return { at: stored.at, cause: backupFailureCause(stored.error) };
}
