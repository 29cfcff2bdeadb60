import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Tables a backup of this product must have before it may replace the live database. */
export const REQUIRED_TABLES = ['users', 'sessions', 'jobs', 'audit_log', 'settings', 'leads', 'lead_repeats'];

/** Daily backups kept, two weeks: the oldest go once there are more. */
export const BACKUPS_KEPT = 14;
/**
 * `app-<YYYYMMDD-HHMMSS>[.n].db.gz` (SQLite) or `….pgdump` (PostgreSQL, pg_dump's custom format):
 * names sort in the order the backups were taken, and both kinds count towards the 14 kept.
 */
const BACKUP_NAME = /^app-(\d{8})-(\d{6})(?:\.(\d+))?\.(?:db\.gz|pgdump)$/;

/** The file name ending of each engine's backups. */
export type BackupKind = 'db.gz' | 'pgdump';

export interface BackupFile {
	name: string;
	path: string;
	bytes: number;
	/** From the name (UTC), or null for a file named by hand. */
	takenAt: string | null;
}

/** BACKUP_DIR, or DATA_DIR/backups when unset; relative paths are taken from the project root. */
export function resolveBackupDir(config: { BACKUP_DIR?: string; dataDir: string; projectRoot: string }): string {
	if (!config.BACKUP_DIR) return path.join(config.dataDir, 'backups');
	return path.isAbsolute(config.BACKUP_DIR) ? config.BACKUP_DIR : path.resolve(config.projectRoot, config.BACKUP_DIR);
}

/** Creates the directory if needed and makes it owner-only (700) either way. */
export function prepareBackupDir(dir: string): void {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

export function backupTimeFromName(name: string): string | null {
	const match = BACKUP_NAME.exec(name);
	if (!match?.[1] || !match[2]) return null;
	const [d, t] = [match[1], match[2]];
	return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}.000Z`;
}

/** Backups in `dir`, newest first. */
export function listBackups(dir: string): BackupFile[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((name) => BACKUP_NAME.test(name))
		.sort(compareBackupNames)
		.reverse()
		.map((name) => ({
			name,
			path: path.join(dir, name),
			bytes: statSync(path.join(dir, name)).size,
			takenAt: backupTimeFromName(name)
		}));
}

function compareBackupNames(a: string, b: string): number {
	const [ma, mb] = [BACKUP_NAME.exec(a), BACKUP_NAME.exec(b)];
	const key = (m: RegExpExecArray | null) => `${m?.[1]}${m?.[2]}${(m?.[3] ?? '1').padStart(4, '0')}`;
	return key(ma).localeCompare(key(mb));
}

/** Deletes all but the newest `keep` backups; returns the names removed. */
export function pruneBackups(dir: string, keep = BACKUPS_KEPT): string[] {
	const old = listBackups(dir).slice(keep);
	for (const file of old) rmSync(file.path, { force: true });
	return old.map((file) => file.name);
}

/** A name for a new backup that never overwrites one taken in the same second. */
export function newBackupPath(dir: string, stamp: string, kind: BackupKind = 'db.gz'): string {
	let candidate = path.join(dir, `app-${stamp}.${kind}`);
	for (let n = 2; existsSync(candidate); n++) candidate = path.join(dir, `app-${stamp}.${n}.${kind}`);
	return candidate;
}
