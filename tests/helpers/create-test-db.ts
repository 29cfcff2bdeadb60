import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, openPostgresDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createDatabase } from './pg-cluster.ts';
import { MIGRATIONS_DIR, SQLITE_TEMPLATE_ENV } from './sqlite-template-setup.ts';

// A test database without vitest: benchmarks (bench/generation-*.ts) make one under plain Node, where
// importing vitest throws. The per-test hooks are test-db.ts's useTestDb and pg-test-db.ts's usePgTestDb.

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

/** Set for the run by TEST_DB_ENGINE=postgresql: useTestDb/createTestDb then give PostgreSQL databases. */
export function testsRunOnPostgres(): boolean {
	return process.env.TEST_DB_ENGINE === 'postgresql';
}

/**
 * A fresh copy of the run's migrated template: its URL, with the production client on it. The server
 * is the globalSetup's cluster (its URL in the environment, or as `inject('pgServerUrl')` gives it).
 */
export async function createPgTestDb(
	serverUrl = process.env.KIOSK_TEST_PG_SERVER_URL
): Promise<{ db: Db; url: string }> {
	if (!serverUrl) throw new Error('TEST_DB_ENGINE=postgresql needs the PostgreSQL globalSetup (vitest.config.ts)');
	const url = await createDatabase(serverUrl, 'template');
	return { db: openPostgresDatabase(url), url };
}
