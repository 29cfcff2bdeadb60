import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../time/clock.ts';
import { BUSY_TIMEOUT_MS } from './client.ts';

/**
 * A plain better-sqlite3 connection, for the few jobs Prisma cannot do: applying migration scripts
 * before the client exists, and SQLite's online backup API.
 */
export function openSqliteFile(dbPath: string, options: { readonly?: boolean } = {}): Database.Database {
	if (!options.readonly) mkdirSync(path.dirname(dbPath), { recursive: true });
	const conn = new Database(dbPath, {
		readonly: options.readonly ?? false,
		fileMustExist: options.readonly ?? false,
		timeout: BUSY_TIMEOUT_MS
	});
	if (!options.readonly) conn.pragma('journal_mode = WAL');
	conn.pragma('foreign_keys = ON');
	return conn;
}

/**
 * Copies a live database with SQLite's backup API: a consistent snapshot even while another
 * process writes (WAL contents included), unlike copying the file.
 */
export async function backupDatabase(source: Database.Database, destination: string): Promise<void> {
	await source.backup(destination);
}

/** `YYYYMMDD-HHMMSS` in UTC, the suffix of `app.db.bak-*` files: names sort in time order. */
export function backupStamp(clock: Clock): string {
	return clock.now().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** `<db>.bak-<stamp>[-<label>]`, never overwriting an existing file made in the same second. */
export function backupPathFor(dbPath: string, clock: Clock, label?: string): string {
	const base = `${dbPath}.bak-${backupStamp(clock)}${label ? `-${label}` : ''}`;
	let candidate = base;
	for (let n = 2; existsSync(candidate); n++) candidate = `${base}.${n}`;
	return candidate;
}
