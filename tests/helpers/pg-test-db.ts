import { afterAll, beforeAll, inject } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { createPgTestDb } from './create-test-db.ts';
import { dropDatabase } from './pg-cluster.ts';

export { testsRunOnPostgres } from './create-test-db.ts';

/**
 * For a PostgreSQL test file: a fresh migrated database of its own (a copy of the run's template),
 * opened with the production client, dropped after the file's last test. Call at the top of the
 * file; the returned function gives the database inside tests.
 */
export function usePgTestDb(): () => { db: Db; url: string; serverUrl: string } {
	let current: { db: Db; url: string; serverUrl: string } | undefined;
	beforeAll(async () => {
		const serverUrl = inject('pgServerUrl');
		current = { ...(await createPgTestDb(serverUrl)), serverUrl };
	});
	afterAll(async () => {
		if (!current) return;
		await current.db.$disconnect();
		await dropDatabase(current.url);
	});
	return () => {
		if (!current) throw new Error('usePgTestDb: the database is made in beforeAll; use it inside a test');
		return current;
	};
}
