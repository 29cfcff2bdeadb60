import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT } from './node-process.ts';
import { createPgTestDb, testsRunOnPostgres } from './pg-test-db.ts';
import { useTempDir } from './temp-dir.ts';

/**
 * A migrated SQLite file in `dir` with the production client on it (disconnect it when done).
 * With TEST_DB_ENGINE=postgresql (tests/helpers/pg-test-db.ts) `db` is a fresh PostgreSQL
 * database instead, and `dbPath` names a file that is never made.
 */
export async function createTestDb(dir: string): Promise<{ db: Db; dbPath: string }> {
	const dbPath = path.join(dir, 'app.db');
	if (testsRunOnPostgres()) return { db: await createPgTestDb(), dbPath };
	await migrateSafely({ dbPath, migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'), clock: systemClock });
	return { db: openDatabase(dbPath), dbPath };
}

/**
 * For a describe block: each call gives a fresh migrated database in a folder of its own; after
 * each test the clients are disconnected, then the folders removed (vitest runs after-hooks last
 * registered first).
 */
export function useTestDb(prefix?: string): () => Promise<{ db: Db; dbPath: string; dir: string }> {
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
