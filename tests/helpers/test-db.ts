import { afterEach } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { createTestDb, type TestDb } from './create-test-db.ts';
import { useTempDir } from './temp-dir.ts';

export { createTestDb, type TestDb } from './create-test-db.ts';

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
