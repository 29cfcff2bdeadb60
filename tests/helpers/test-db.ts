import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, openPostgresDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createPgTestDb, testsRunOnPostgres } from './pg-test-db.ts';
import { MIGRATIONS_DIR, SQLITE_TEMPLATE_ENV } from './sqlite-template-setup.ts';
import { useTempDir } from './temp-dir.ts';

export interface TestDb {
	db: Db;
	/** The SQLite file; on PostgreSQL a name that is never made. */
	dbPath: string;
	/** What a product process started on this database gets in its environment: DB_PATH or DATABASE_URL. */
	dbEnv: { DB_PATH: string } | { DATABASE_URL: string };
	/** A second production client on the same database, as a restarted process would open it. */
	reopen(): Db;
}

/**
 * A migrated SQLite file in `dir` with the production client on it (disconnect it when done).
 * With TEST_DB_ENGINE=postgresql (tests/helpers/pg-test-db.ts) `db` is a fresh PostgreSQL
 * database instead.
 */
export async function createTestDb(dir: string): Promise<TestDb> {
	const dbPath = path.join(dir, 'app.db');
	if (testsRunOnPostgres()) {
		const { db, url } = await createPgTestDb();
		return { db, dbPath, dbEnv: { DATABASE_URL: url }, reopen: () => openPostgresDatabase(url) };
	}
	await migratedFile(dbPath);
	return { db: openDatabase(dbPath), dbPath, dbEnv: { DB_PATH: dbPath }, reopen: () => openDatabase(dbPath) };
}

/**
 * A copy of the run's migrated template (the same file migrateSafely makes, with the same history
 * rows), or — when no globalSetup made one — the migrations applied here.
 */
async function migratedFile(dbPath: string): Promise<void> {
	const template = process.env[SQLITE_TEMPLATE_ENV];
	if (template) copyFileSync(template, dbPath);
	else await migrateSafely({ dbPath, migrationsDir: MIGRATIONS_DIR, clock: systemClock });
}

/**
 * For a describe block: each call gives a fresh migrated database in a folder of its own; after
 * each test the clients are disconnected, then the folders removed (vitest runs after-hooks last
 * registered first).
 */
export function useTestDb(prefix?: string): () => Promise<TestDb & { dir: string }> {
	const tempDir = useTempDir(prefix);
	const open: Db[] = [];
	afterEach(async () => {
		for (const db of open.splice(0)) await db.$disconnect();
	});
	return async () => {
		const dir = tempDir();
		const made = await createTestDb(dir);
		open.push(made.db);
		return { ...made, dir };
	};
}
