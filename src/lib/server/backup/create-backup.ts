import { createReadStream, createWriteStream, chmodSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from '../db/client.ts';
import { integrityCheck } from '../db/migrations/schema-shape.ts';
import { backupDatabase, backupStamp } from '../db/sqlite-file.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { BACKUPS_KEPT, newBackupPath, prepareBackupDir, pruneBackups } from './backup-files.ts';

/** Written into each snapshot (never into the live database): when the copy was taken. */
export const BACKUP_TAKEN_AT_KEY = 'backup_taken_at';

export interface BackupOptions {
	dbPath: string;
	backupDir: string;
	clock: Clock;
	logger: Logger;
	keep?: number;
}

export interface BackupResult {
	file: string;
	bytes: number;
	takenAt: string;
	removed: string[];
}

export class BackupError extends Error {
	override name = 'BackupError';
}

/**
 * One backup: a consistent snapshot with SQLite's backup API while the processes
 * keep writing → integrity_check on the snapshot → gzip -9 → mode 600 in a 700 directory → keep
 * the newest 14. The photos are not backed up. A failure leaves no partial file behind.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
	const takenAt = options.clock.now().toISOString();
	const stamp = backupStamp(options.clock);
	prepareBackupDir(options.backupDir);
	const snapshot = path.join(options.backupDir, `.snapshot-${stamp}-${process.pid}.db`);
	const target = newBackupPath(options.backupDir, stamp);
	const partial = `${target}.partial`;
	try {
		await snapshotDatabase(options.dbPath, snapshot);
		sealSnapshot(snapshot, takenAt);
		await gzipTo(snapshot, partial);
		renameSync(partial, target);
	} finally {
		for (const leftover of [partial, snapshot, `${snapshot}-wal`, `${snapshot}-shm`, `${snapshot}-journal`])
			rmSync(leftover, { force: true });
	}
	const removed = pruneBackups(options.backupDir, options.keep ?? BACKUPS_KEPT);
	const result = { file: target, bytes: statSync(target).size, takenAt, removed };
	options.logger.info({ file: path.basename(target), bytes: result.bytes, removed }, 'database backup written');
	return result;
}

async function snapshotDatabase(dbPath: string, snapshot: string): Promise<void> {
	let source: Database.Database;
	try {
		source = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
	} catch (error) {
		throw new BackupError(`cannot open the database ${dbPath}: ${(error as Error).message}`);
	}
	try {
		await backupDatabase(source, snapshot);
	} finally {
		source.close();
	}
}

/** Checks the copy, makes it a single self-contained file, and stamps it with its time. */
function sealSnapshot(snapshot: string, takenAt: string): void {
	const conn = new Database(snapshot);
	try {
		const integrity = integrityCheck(conn);
		if (integrity !== 'ok') throw new BackupError(`the snapshot failed integrity_check: ${integrity}`);
		conn.pragma('journal_mode = DELETE');
		conn
			.prepare(
				`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
			)
			.run(BACKUP_TAKEN_AT_KEY, takenAt, takenAt);
	} finally {
		conn.close();
	}
}

async function gzipTo(source: string, target: string): Promise<void> {
	await pipeline(createReadStream(source), createGzip({ level: 9 }), createWriteStream(target, { mode: 0o600 }));
	chmodSync(target, 0o600); // mode is subject to the umask on creation; make it exact
}
