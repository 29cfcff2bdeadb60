import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { deleteSetting, readJsonSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import { HOUR, MINUTE, type Clock } from '../time/clock.ts';
import type { BackupResult } from './create-backup.ts';

// Settings rows the console's Health page reads (docs/data-model.md lists every settings key).
export const LAST_BACKUP_KEY = 'last_backup';
export const LAST_BACKUP_FAILURE_KEY = 'last_backup_failure';
export const LAST_SWEEP_KEY = 'last_sweep_at';
export const LAST_RESTORE_KEY = 'last_restore';
/** When the worker's daily backup started, until it ends: a worker checking meanwhile does not take a second one. */
export const BACKUP_STARTED_KEY = 'backup_started';

/** A daily backup is due this long after the last good one (a little under a day, so hourly checks never skip a day). */
export const BACKUP_DUE_AFTER_MS = 24 * HOUR - 30 * MINUTE;
/** A started backup older than this is taken for dead (its worker was killed mid-dump): the next check dumps again. */
export const BACKUP_RUNNING_AT_MOST_MS = 30 * MINUTE;

export const lastBackupSchema = z.object({
	at: z.string(),
	file: z.string(),
	bytes: z.number(),
	integrity: z.literal('ok')
});
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

/**
 * True when no good backup exists or the last one is about a day old (the timer may have run
 * instead), and no worker started one in the last half hour: on a fleet a dump still running when
 * the next hour's check comes (in another worker) is not taken twice.
 */
export async function isBackupDue(db: Db, clock: Clock): Promise<boolean> {
	const now = clock.now().getTime();
	const started = await readSetting(db, BACKUP_STARTED_KEY);
	if (started && now - Date.parse(started) < BACKUP_RUNNING_AT_MOST_MS) return false;
	const last = await readLastBackup(db);
	if (!last) return true;
	return now - Date.parse(last.at) >= BACKUP_DUE_AFTER_MS;
}

export async function recordBackupStarted(db: Db, clock: Clock): Promise<void> {
	await writeSetting(db, clock, BACKUP_STARTED_KEY, clock.now().toISOString());
}

/** The backup ended, well or not: the next due check decides again. */
export async function clearBackupStarted(db: Db): Promise<void> {
	await deleteSetting(db, BACKUP_STARTED_KEY);
}

export async function recordSweep(db: Db, clock: Clock): Promise<void> {
	await writeSetting(db, clock, LAST_SWEEP_KEY, clock.now().toISOString());
}
