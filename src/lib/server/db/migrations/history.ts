import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { MigrationFile } from './migration-files.ts';

/**
 * The migration history table, in the layout Prisma's own CLI uses, so `prisma migrate deploy`
 * on a machine that can download Prisma's engine agrees with what we applied.
 */
const CREATE_HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** One applied migration as `_prisma_migrations` records it (the same columns on every engine). */
export interface HistoryRow {
	migration_name: string;
	checksum: string;
	finished_at: string | null;
	rolled_back_at: string | null;
}

export class MigrationHistoryError extends Error {
	override name = 'MigrationHistoryError';
}

export function ensureHistoryTable(conn: Database.Database): void {
	conn.exec(CREATE_HISTORY);
}

function readHistory(conn: Database.Database): HistoryRow[] {
	const exists = conn.prepare(`SELECT 1 FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'`).get();
	if (!exists) return [];
	return conn
		.prepare(
			`SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations WHERE rolled_back_at IS NULL`
		)
		.all() as HistoryRow[];
}

/**
 * The migrations not yet applied, in order. Refuses (throws) when the history cannot be trusted:
 * a migration that started and never finished, or an applied script whose file has since changed.
 */
export function findPendingMigrations(conn: Database.Database, files: MigrationFile[]): MigrationFile[] {
	return pendingAfter(readHistory(conn), files);
}

/** findPendingMigrations on history rows already read (PostgreSQL reads them with its own driver). */
export function pendingAfter(history: HistoryRow[], files: MigrationFile[]): MigrationFile[] {
	const applied = new Map(history.map((row) => [row.migration_name, row]));
	for (const row of applied.values()) {
		if (!row.finished_at)
			throw new MigrationHistoryError(
				`migration ${row.migration_name} started but never finished; restore the backup taken before it`
			);
	}
	for (const file of files) {
		const row = applied.get(file.name);
		if (row && row.checksum !== file.checksum) {
			throw new MigrationHistoryError(
				`migration ${file.name} was changed after it was applied (checksum differs); add a new migration instead`
			);
		}
	}
	return files.filter((file) => !applied.has(file.name));
}

export function recordMigration(conn: Database.Database, file: MigrationFile, at: string): void {
	conn
		.prepare(
			`INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
			 VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`
		)
		.run(randomUUID(), file.checksum, at, file.name, at);
}
