import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { readJsonSetting, writeSetting } from '../settings/settings.repository.ts';
import { HOUR, MINUTE, type Clock } from '../time/clock.ts';
import type { BackupResult } from './create-backup.ts';

// Settings rows the console's Health page reads (docs/data-model.md lists every settings key).
export const LAST_BACKUP_KEY = 'last_backup';
export const LAST_BACKUP_FAILURE_KEY = 'last_backup_failure';
export const LAST_SWEEP_KEY = 'last_sweep_at';
export const LAST_RESTORE_KEY = 'last_restore';

/** A daily backup is due this long after the last good one (a little under a day, so hourly checks never skip a day). */
export const BACKUP_DUE_AFTER_MS = 24 * HOUR - 30 * MINUTE;

export const lastBackupSchema = z.object({ at: z.string(), file: z.string(), bytes: z.number(), integrity: z.literal('ok') });
export type LastBackup = z.infer<typeof lastBackupSchema>;

export async function recordBackupSuccess(db: Db, clock: Clock, result: BackupResult): Promise<void> {
	const value: LastBackup = { at: result.takenAt, file: result.file, bytes: result.bytes, integrity: 'ok' };
	await writeSetting(db, clock, LAST_BACKUP_KEY, JSON.stringify(value));
}

export async function recordBackupFailure(db: Db, clock: Clock, error: unknown): Promise<void> {
	const value = { at: clock.now().toISOString(), error: String((error as Error)?.message ?? error).slice(0, 500) };
	await writeSetting(db, clock, LAST_BACKUP_FAILURE_KEY, JSON.stringify(value));
}

export function readLastBackup(db: Db): Promise<LastBackup | null> {
	return readJsonSetting(db, LAST_BACKUP_KEY, lastBackupSchema);
}

/** True when no good backup exists or the last one is about a day old (the timer may have run instead). */
export async function isBackupDue(db: Db, clock: Clock): Promise<boolean> {
	const last = await readLastBackup(db);
	if (!last) return true;
	return clock.now().getTime() - Date.parse(last.at) >= BACKUP_DUE_AFTER_MS;
}

export async function recordSweep(db: Db, clock: Clock): Promise<void> {
	await writeSetting(db, clock, LAST_SWEEP_KEY, clock.now().toISOString());
}
