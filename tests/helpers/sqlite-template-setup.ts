import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT } from './node-process.ts';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'prisma', 'migrations');
/** The environment variable that tells the test processes where the template is. */
export const SQLITE_TEMPLATE_ENV = 'KIOSK_TEST_SQLITE_TEMPLATE';

/**
 * vitest globalSetup of the `node` project: the migrations are applied once per run, through the
 * product's own migrateSafely, to a template SQLite file; createTestDb (test-db.ts) copies it
 * instead of migrating every test's database again (some 40 ms of CPU and 0.2–0.4 s of waiting
 * on the disk each). The path reaches the test processes through their inherited environment; the folder is
 * removed when the run ends.
 */
export default async function setup(): Promise<() => void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'kiosk-test-template-'));
	const template = path.join(dir, 'template.db');
	await migrateSafely({ dbPath: template, migrationsDir: MIGRATIONS_DIR, clock: systemClock });
	// A copy of the main file alone is the whole database only when no WAL is left beside it.
	if (existsSync(`${template}-wal`)) throw new Error(`the migrated template left a WAL file: ${template}-wal`);
	process.env[SQLITE_TEMPLATE_ENV] = template;
	return () => rmSync(dir, { recursive: true, force: true });
}
