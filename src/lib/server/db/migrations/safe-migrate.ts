import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Clock } from '../../time/clock.ts';
import { backupDatabase, backupPathFor, backupStamp, openSqliteFile } from '../sqlite-file.ts';
import { applyMigrations } from './apply.ts';
import { findPendingMigrations } from './history.ts';
import { readMigrationFiles, type MigrationFile } from './migration-files.ts';
import { compareSchemas, countRows, describeSchema, integrityCheck, type SchemaShape } from './schema-shape.ts';

export interface SafeMigrateOptions {
	dbPath: string;
	migrationsDir: string;
	clock: Clock;
}

export interface SafeMigrateResult {
	applied: string[];
	/** The `app.db.bak-<ts>` copy taken before touching an existing database. */
	backupPath?: string;
}

export class MigrationError extends Error {
	override name = 'MigrationError';
}

/**
 * Brings the database at `dbPath` up to the migrations on disk with a safety net:
 * back up with the SQLite backup API, apply on a copy, verify the copy (integrity_check, row
 * counts unchanged — or moved, see ROWS_MOVE — every expected table, column and index present), then apply live in one
 * transaction with the same checks. Any failure leaves the live file as it was and throws a
 * MigrationError whose message says what happened; the processes refuse to start on it.
 */
export async function migrateSafely(options: SafeMigrateOptions): Promise<SafeMigrateResult> {
	const files = readMigrationFiles(options.migrationsDir);
	if (files.length === 0) throw new MigrationError(`no migrations found in ${options.migrationsDir}`);
	const expected = referenceShape(files);
	const at = options.clock.now().toISOString();
	try {
		if (isNewDatabase(options.dbPath)) return { applied: migrateNewDatabase(options.dbPath, files, expected, at) };
		return await migrateExistingDatabase(options, files, expected, at);
	} catch (error) {
		if (error instanceof MigrationError) throw error;
		throw new MigrationError(
			`database migration failed; ${options.dbPath} was left unchanged. Cause: ${(error as Error).message}`
		);
	}
}

function isNewDatabase(dbPath: string): boolean {
	return !existsSync(dbPath) || statSync(dbPath).size === 0;
}

function migrateNewDatabase(dbPath: string, files: MigrationFile[], expected: SchemaShape, at: string): string[] {
	const conn = openSqliteFile(dbPath);
	try {
		return applyMigrations(conn, files, at, verifyShape(expected));
	} finally {
		conn.close();
	}
}

async function migrateExistingDatabase(
	options: SafeMigrateOptions,
	files: MigrationFile[],
	expected: SchemaShape,
	at: string
): Promise<SafeMigrateResult> {
	const live = openSqliteFile(options.dbPath);
	try {
		if (findPendingMigrations(live, files).length === 0) return { applied: [] };
		const backupPath = backupPathFor(options.dbPath, options.clock);
		await backupDatabase(live, backupPath);
		trialRun(backupPath, `${options.dbPath}.trial-${backupStamp(options.clock)}`, files, expected, at);
		const applied = applyMigrations(live, files, at, verifyShape(expected));
		return { applied, backupPath };
	} finally {
		live.close();
	}
}

/** Applies the migrations to a copy of the backup and verifies it; the copy is removed afterwards. */
function trialRun(
	backupPath: string,
	trialPath: string,
	files: MigrationFile[],
	expected: SchemaShape,
	at: string
): void {
	copyFileSync(backupPath, trialPath);
	const trial = new Database(trialPath);
	try {
		const before = countRows(trial);
		const moves = readRowMoves(findPendingMigrations(trial, files));
		applyMigrations(trial, files, at, (conn) => {
			verifyShape(expected)(conn);
			verifyRowCounts(before, countRows(conn), moves);
		});
	} catch (error) {
		throw new MigrationError(
			`trial migration on a copy failed, the live database was not touched. Cause: ${(error as Error).message}`
		);
	} finally {
		trial.close();
		for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${trialPath}${suffix}`, { force: true });
	}
}

function verifyShape(expected: SchemaShape) {
	return (conn: Database.Database): void => {
		const integrity = integrityCheck(conn);
		if (integrity !== 'ok') throw new Error(`integrity_check says: ${integrity}`);
		const problems = compareSchemas(expected, describeSchema(conn));
		if (problems.length > 0)
			throw new Error(`schema after migration is not what the migrations define: ${problems.join(', ')}`);
	};
}

/**
 * A migration that retires a table says where its rows went, on a line of its own:
 * `-- rows-move: <old table> -> <new table>`. The check then lets the old table go and wants the
 * new one to have grown by at least the old one's rows: a retired table's rows are moved, never lost.
 */
const ROWS_MOVE = /^--\s*rows-move:\s*(\w+)\s*->\s*(\w+)\s*$/gm;

export function readRowMoves(files: MigrationFile[]): Map<string, string> {
	const moves = new Map<string, string>();
	for (const file of files) for (const [, from, to] of file.sql.matchAll(ROWS_MOVE)) moves.set(from!, to!);
	return moves;
}

function verifyRowCounts(
	before: Map<string, number>,
	after: Map<string, number>,
	moves: Map<string, string> = new Map()
): void {
	const growth = new Map<string, number>();
	for (const [from, to] of moves) {
		if (after.has(from)) throw new Error(`${from} was to be retired (rows moved to ${to}) but is still there`);
		growth.set(to, (growth.get(to) ?? 0) + (before.get(from) ?? 0));
	}
	for (const [to, moved] of growth) {
		const was = before.get(to) ?? 0;
		const now = after.get(to) ?? 0;
		if (now < was + moved)
			throw new Error(
				`${to} holds ${now} rows after the migration; the ${moved} moved into it (and its ${was}) were expected`
			);
	}
	for (const [table, count] of before) {
		if (moves.has(table) || growth.has(table)) continue;
		const now = after.get(table);
		if (now !== count) throw new Error(`row count of ${table} changed from ${count} to ${now ?? 'missing table'}`);
	}
}

/** The schema the migrations define, built from scratch in memory. */
function referenceShape(files: MigrationFile[]): SchemaShape {
	const conn = new Database(':memory:');
	try {
		applyMigrations(conn, files, new Date(0).toISOString());
		return describeSchema(conn);
	} catch (error) {
		throw new MigrationError(
			`the migrations in prisma/migrations do not apply to an empty database: ${(error as Error).message}`
		);
	} finally {
		conn.close();
	}
}
