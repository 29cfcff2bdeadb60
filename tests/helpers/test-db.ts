import path from 'node:path';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT } from './node-process.ts';

/** A migrated SQLite file in `dir` with the production client on it (disconnect it when done). */
export async function createTestDb(dir: string): Promise<{ db: Db; dbPath: string }> {
	const dbPath = path.join(dir, 'app.db');
	await migrateSafely({ dbPath, migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'), clock: systemClock });
	return { db: openDatabase(dbPath), dbPath };
}
