import {
	chownSync,
	copyFileSync,
	createReadStream,
	createWriteStream,
	existsSync,
	renameSync,
	rmSync,
	statSync
} from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { countRows, integrityCheck } from '../db/migrations/schema-shape.ts';
import { backupDatabase, backupPathFor, backupStamp } from '../db/sqlite-file.ts';
import { instanceLockPath, liveLockHolder } from '../system/instance-lock.ts';
import type { Clock } from '../time/clock.ts';
import { backupTimeFromName, REQUIRED_TABLES } from './backup-files.ts';
import { LAST_RESTORE_KEY } from './backup-status.ts';
import { BACKUP_TAKEN_AT_KEY } from './create-backup.ts';
import { applyErasures, collectErasures, type ErasuresToReplay } from './erasure-replay.ts';

export interface RestoreOptions {
	backupFile: string;
	dbPath: string;
	dataDir: string;
	clock: Clock;
	pseudonymKey: Buffer;
	/** Restore even though the worker or the web process holds its lock (it keeps writing to the old file!). */
	force?: boolean;
	/** Restore even when the current database cannot be read, so its erasures cannot be carried over. */
	withoutReplay?: boolean;
}

export interface RestoreResult {
	backupTakenAt: string;
	keptAside: string | null;
	counts: Record<string, number>;
	reapplied: { guests: number; leads: number } | null;
}

export class RestoreError extends Error {
	override name = 'RestoreError';
}

/**
 * Restores a backup in steps that each stop on failure with the live database untouched:
 * refuse while the worker or the web process runs → gunzip next to the database → integrity_check and required tables
 * → re-apply erasures recorded in the current database after the backup was taken → keep the
 * current database aside as app.db.bak-<ts>-before-restore → swap the files.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
	assertNoProcessRunning(options.dataDir, options.force ?? false);
	if (!existsSync(options.backupFile)) throw new RestoreError(`no backup at ${options.backupFile}`);
	const staged = `${options.dbPath}.restore-${backupStamp(options.clock)}.tmp`;
	try {
		await unpack(options.backupFile, staged);
		const conn = openVerified(staged);
		let result: Omit<RestoreResult, 'keptAside' | 'counts'>;
		try {
			result = await prepareStaged(conn, options);
		} finally {
			conn.close();
		}
		const keptAside = await keepCurrentAside(options);
		swapIn(staged, options.dbPath);
		return { ...result, keptAside, counts: readCounts(options.dbPath) };
	} finally {
		for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${staged}${suffix}`, { force: true });
	}
}

/**
 * Both processes keep the database open: after the swap their writes would go to the replaced
 * file and be lost. Each holds its own lock in DATA_DIR (main.lock, web.lock) while it runs.
 */
function assertNoProcessRunning(dataDir: string, force: boolean): void {
	if (force) return;
	const running = (['worker', 'web'] as const)
		.map((owner) => ({ owner, pid: liveLockHolder(dataDir, owner) }))
		.filter((holder) => holder.pid !== null)
		.map(
			({ owner, pid }) =>
				`the ${owner === 'web' ? 'web process' : 'worker'} (pid ${pid}) holds ${instanceLockPath(dataDir, owner)}`
		);
	if (running.length === 0) return;
	throw new RestoreError(
		`${running.join(' and ')}: stop the web and worker services first (systemctl stop sticker-bot sticker-api), or pass --force`
	);
}

async function unpack(source: string, target: string): Promise<void> {
	try {
		if (source.endsWith('.gz'))
			await pipeline(createReadStream(source), createGunzip(), createWriteStream(target, { mode: 0o600 }));
		else copyFileSync(source, target);
	} catch (error) {
		throw new RestoreError(
			`${path.basename(source)} cannot be unpacked (${(error as Error).message}); nothing was changed`
		);
	}
}

function openVerified(file: string): Database.Database {
	let conn: Database.Database | undefined;
	try {
		conn = new Database(file, { fileMustExist: true });
		const integrity = integrityCheck(conn);
		if (integrity !== 'ok') throw new Error(`integrity_check says: ${integrity}`);
		const tables = conn.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
		const missing = REQUIRED_TABLES.filter((t) => !tables.includes(t));
		if (missing.length > 0) throw new Error(`not a database of this product (missing ${missing.join(', ')})`);
		return conn;
	} catch (error) {
		conn?.close();
		throw new RestoreError(`the backup is not usable: ${(error as Error).message}; nothing was changed`);
	}
}

/** Reads when the backup was taken, re-applies later erasures, notes the restore. */
async function prepareStaged(
	conn: Database.Database,
	options: RestoreOptions
): Promise<Omit<RestoreResult, 'keptAside' | 'counts'>> {
	const backupTakenAt = readTakenAt(conn, options.backupFile);
	let reapplied: RestoreResult['reapplied'] = null;
	if (existsSync(options.dbPath)) {
		const erasures = await collectOrExplain(options, backupTakenAt);
		if (erasures) reapplied = await applyErasures(conn, erasures, options.pseudonymKey);
	}
	const now = options.clock.now().toISOString();
	const note = JSON.stringify({ at: now, from: path.basename(options.backupFile), backupTakenAt, reapplied });
	conn.prepare(`DELETE FROM settings WHERE key = ?`).run(BACKUP_TAKEN_AT_KEY);
	conn
		.prepare(
			`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
		)
		.run(LAST_RESTORE_KEY, note, now);
	return { backupTakenAt, reapplied };
}

async function collectOrExplain(options: RestoreOptions, since: string): Promise<ErasuresToReplay | null> {
	try {
		return await collectErasures(options.dbPath, since, options.pseudonymKey);
	} catch (error) {
		if (options.withoutReplay) return null;
		throw new RestoreError(
			`${(error as Error).message}. Nothing was changed. To restore anyway (erasures made after the backup would come back), pass --without-replay`
		);
	}
}

/** The time stamped into the snapshot, else the one in its name, else the file's mtime. */
function readTakenAt(conn: Database.Database, backupFile: string): string {
	const stamped = conn.prepare(`SELECT value FROM settings WHERE key = ?`).pluck().get(BACKUP_TAKEN_AT_KEY) as
		string | undefined;
	return stamped ?? backupTimeFromName(path.basename(backupFile)) ?? statSync(backupFile).mtime.toISOString();
}

/** A consistent copy of the current database (WAL included) as app.db.bak-<ts>-before-restore. */
async function keepCurrentAside(options: RestoreOptions): Promise<string | null> {
	if (!existsSync(options.dbPath)) return null;
	const aside = backupPathFor(options.dbPath, options.clock, 'before-restore');
	try {
		const current = new Database(options.dbPath, { readonly: true, fileMustExist: true });
		try {
			await backupDatabase(current, aside);
		} finally {
			current.close();
		}
	} catch {
		// A damaged file cannot be read page by page: keep its bytes as they are.
		copyFileSync(options.dbPath, aside);
		if (existsSync(`${options.dbPath}-wal`)) copyFileSync(`${options.dbPath}-wal`, `${aside}-wal`);
	}
	return aside;
}

/** Replaces the database file; the old WAL must go too, or SQLite would replay it into the new file. */
function swapIn(staged: string, dbPath: string): void {
	const owner = existsSync(dbPath) ? statSync(dbPath) : null;
	for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true });
	renameSync(staged, dbPath);
	// Run as root (e.g. by the runbook's sudo), keep the service user as the owner.
	if (owner && process.getuid?.() === 0) chownSync(dbPath, owner.uid, owner.gid);
}

function readCounts(dbPath: string): Record<string, number> {
	const conn = new Database(dbPath, { readonly: true, fileMustExist: true });
	try {
		return Object.fromEntries(countRows(conn));
	} finally {
		conn.close();
	}
}
