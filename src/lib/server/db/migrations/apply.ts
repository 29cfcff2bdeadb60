import type Database from 'better-sqlite3';
import { ensureHistoryTable, findPendingMigrations, recordMigration } from './history.ts';
import type { MigrationFile } from './migration-files.ts';

/** Checks run inside the migration transaction, before COMMIT; a thrown error rolls everything back. */
export type VerifyStep = (conn: Database.Database) => void;

/**
 * Applies the pending migrations in one BEGIN IMMEDIATE transaction (SQLite DDL is transactional,
 * so a failure leaves the file as it was). Pending is decided inside the transaction, so when both
 * processes start at once the second finds nothing to do.
 *
 * Foreign keys are switched off for the duration, as SQLite prescribes for schema changes (Prisma's
 * table-redefinition scripts drop and recreate tables, and DROP TABLE with enforcement on would run
 * ON DELETE actions); `foreign_key_check` must come back empty before we commit.
 */
export function applyMigrations(
	conn: Database.Database,
	files: MigrationFile[],
	at: string,
	verify?: VerifyStep
): string[] {
	conn.pragma('foreign_keys = OFF');
	conn.exec('BEGIN IMMEDIATE');
	try {
		ensureHistoryTable(conn);
		const pending = findPendingMigrations(conn, files);
		for (const file of pending) {
			runScript(conn, file);
			recordMigration(conn, file, at);
		}
		const violations = conn.prepare('PRAGMA foreign_key_check').all();
		if (violations.length > 0) throw new Error(`foreign key check failed: ${JSON.stringify(violations.slice(0, 3))}`);
		verify?.(conn);
		conn.exec('COMMIT');
		return pending.map((file) => file.name);
	} catch (error) {
		if (conn.inTransaction) conn.exec('ROLLBACK');
		throw error;
	} finally {
		conn.pragma('foreign_keys = ON');
	}
}

function runScript(conn: Database.Database, file: MigrationFile): void {
	try {
		conn.exec(file.sql);
	} catch (error) {
		throw new Error(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
	}
}
