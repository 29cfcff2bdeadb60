import type { BackupFailureCause } from '../../server/backup/backup-failure.ts';
import { providerAnswerWords } from '../../schemas/api-usage-view.ts';
import { formatBytes } from './format.ts';

/**
 * The Health page in an operator's words: backups as "Today 03:00 · 12 MB · kept on the server's
 * disk" (no file names, no server paths), the service's state and the image provider's failures
 * without status codes. Pure; `timeZone` is for tests (the page uses the browser's zone).
 */

const DAY_MS = 24 * 3600_000;

/** "Today 03:00", "Yesterday 23:10", "2 Dec 03:00". */
export function dayAndTime(iso: string, now: Date, timeZone?: string): string {
	const at = new Date(iso);
	if (Number.isNaN(at.getTime())) return iso;
	const day = (d: Date) => d.toLocaleDateString('en-CA', { timeZone });
	const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone });
	if (day(at) === day(now)) return `Today ${time}`;
	if (day(at) === day(new Date(now.getTime() - DAY_MS))) return `Yesterday ${time}`;
	return `${at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone })} ${time}`;
}

/** The last good daily backup; the worker writes it to the backups folder on the server's own disk. */
export function backupWords(backup: { at: string; bytes: number } | null, now: Date, timeZone?: string): string {
	if (!backup) return 'none yet: the worker takes one a day';
	return `${dayAndTime(backup.at, now, timeZone)} · ${formatBytes(backup.bytes)} · kept on the server’s disk`;
}

/** What went wrong, in words; an unknown cause points to the log rather than showing a raw error. */
export const BACKUP_FAILURE_CAUSE_WORDS: Record<BackupFailureCause, string> = {
	'disk-full': 'failed: the disk was full',
	'no-permission': 'failed: the worker may not write to the backups folder',
	'database-unreachable': 'failed: the database did not answer',
	'tool-missing': 'failed: pg_dump of the database server’s version is not installed',
	'check-failed': 'failed: the copy did not pass its check',
	unknown: 'failed; the worker’s log has the details'
};

/** "at 03:00" today, else "of yesterday 03:00" / "of 2 Dec 03:00". */
function failedWhen(iso: string, now: Date, timeZone?: string): string {
	const moment = dayAndTime(iso, now, timeZone);
	return moment.startsWith('Today ') ? `at ${moment.slice('Today '.length)}` : `of ${lowerFirst(moment)}`;
}

function lowerFirst(words: string): string {
	return words.charAt(0).toLowerCase() + words.slice(1);
}

/**
 * The last backup failed after the last good one: "The backup at 03:00 failed: the disk was full —
 * the previous one is from yesterday 03:00". The worker tries again the next hour.
 */
export function backupFailureWords(
	failure: { at: string; cause: BackupFailureCause },
	lastGood: { at: string } | null,
	now: Date,
	timeZone?: string
): string {
	const what = BACKUP_FAILURE_CAUSE_WORDS[failure.cause] ?? BACKUP_FAILURE_CAUSE_WORDS.unknown;
	const previous = lastGood
		? `the previous one is from ${lowerFirst(dayAndTime(lastGood.at, now, timeZone))}`
		: 'there is no good backup yet';
	return `The backup ${failedWhen(failure.at, now, timeZone)} ${what} — ${previous}`;
}

/** `app.db.bak-20261203-140200-reset` → its moment (the stamp is UTC), or null for another name. */
export function safetyCopyTakenAt(name: string | null): string | null {
	const m = /\.bak-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(name ?? '');
	return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : null;
}

/** The copies a migration or a guest reset leaves beside the database file. */
export function safetyCopiesWords(
	copies: { count: number; newest: string | null },
	now: Date,
	timeZone?: string
): string {
	if (copies.count === 0) return 'none: one is made before each database upgrade and guest reset';
	const newest = safetyCopyTakenAt(copies.newest);
	const count = copies.count === 1 ? '1 copy' : `${copies.count} copies`;
	return `${count} beside the database${newest ? `, the newest ${dayAndTime(newest, now, timeZone)}` : ''} (made before each database upgrade and guest reset)`;
}

export const SERVICE_STATUS_WORDS: Record<string, string> = {
	ok: 'working',
	paused: 'paused: jobs wait until the queue runs again',
	degraded: 'in trouble: see what is wrong below'
};

/** An image provider's last failure as stored ("HTTP 503 …", "429 RESOURCE_EXHAUSTED …") in words. */
export function providerErrorWords(error: string | null): string {
	if (!error) return '';
	const code = /\b(?:HTTP |status )?([45]\d\d)\b/.exec(error)?.[1];
	if (!code) return error;
	const rest = error.replace(/\b(?:HTTP |status )?[45]\d\d\b:?\s*/, '').trim();
	const words = providerAnswerWords(Number(code));
	return rest ? `${words} (${rest})` : words;
}
