import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MigrationError, migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT, runBuiltWorker } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const REAL_MIGRATIONS = path.join(PROJECT_ROOT, 'prisma', 'migrations');
const clock = new FakeClock('2026-11-29T10:11:12.000Z');

/** A copy of our migrations plus one more, so tests never touch prisma/migrations. */
function migrationsWith(dir: string, extra?: { name: string; sql: string }): string {
	const target = path.join(dir, 'migrations');
	cpSync(REAL_MIGRATIONS, target, { recursive: true });
	if (extra) {
		mkdirSync(path.join(target, extra.name));
		writeFileSync(path.join(target, extra.name, 'migration.sql'), extra.sql);
	}
	return target;
}

/** A database at the current schema with a few rows, fully checkpointed so its bytes are stable. */
async function seededDatabase(dir: string): Promise<string> {
	const dbPath = path.join(dir, 'app.db');
	await migrateSafely({ dbPath, migrationsDir: migrationsWith(path.join(dir, 'base')), clock });
	const conn = new Database(dbPath);
	conn
		.prepare(
			`INSERT INTO users (telegram_user_id, created_at) VALUES (42, '2026-11-01T00:00:00.000Z'), (43, '2026-11-01T00:00:00.000Z')`
		)
		.run();
	conn.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', '2026-11-01T00:00:00.000Z')`).run();
	conn.pragma('wal_checkpoint(TRUNCATE)');
	conn.close();
	return dbPath;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('safe migrations at start-up', () => {
	const tempDir = useTempDir();

	it('a good migration makes an app.db.bak-<YYYYMMDD-HHMMSS> backup first, then adds the column live', async () => {
		const dir = tempDir();
		const dbPath = await seededDatabase(dir);
		const migrationsDir = migrationsWith(dir, {
			name: '20270101000000_add_nickname',
			sql: 'ALTER TABLE "users" ADD COLUMN "nickname" TEXT;\n'
		});
		const result = await migrateSafely({ dbPath, migrationsDir, clock });
		expect(result.applied).toEqual(['20270101000000_add_nickname']);
		expect(path.basename(result.backupPath!)).toBe('app.db.bak-20261129-101112');
		const live = new Database(dbPath, { readonly: true });
		expect(live.prepare(`SELECT name FROM pragma_table_info('users')`).pluck().all()).toContain('nickname');
		expect(live.prepare('SELECT count(*) FROM users').pluck().get()).toBe(2);
		live.close();
		const backup = new Database(result.backupPath!, { readonly: true });
		expect(backup.prepare(`SELECT name FROM pragma_table_info('users')`).pluck().all()).not.toContain('nickname');
		expect(backup.prepare('SELECT count(*) FROM users').pluck().get()).toBe(2);
		backup.close();
		expect(readdirSync(dir).filter((f) => f.includes('.trial-'))).toEqual([]);
		// Running again finds nothing to do and makes no new backup.
		expect(await migrateSafely({ dbPath, migrationsDir, clock: new FakeClock('2026-11-29T11:00:00.000Z') })).toEqual({
			applied: []
		});
	});

	it('a migration that fails on the real data leaves the live file byte-identical and says why', async () => {
		const dir = tempDir();
		const dbPath = await seededDatabase(dir);
		const before = sha(dbPath);
		// Fine on an empty database, fails on ours: two users get the same value of a new unique column.
		const migrationsDir = migrationsWith(dir, {
			name: '20270101000000_unique_flag',
			sql: `ALTER TABLE "users" ADD COLUMN "flag" TEXT NOT NULL DEFAULT 'x';\nCREATE UNIQUE INDEX "users_flag_key" ON "users"("flag");\n`
		});
		const failure = migrateSafely({ dbPath, migrationsDir, clock });
		await expect(failure).rejects.toBeInstanceOf(MigrationError);
		await expect(failure).rejects.toThrow(
			/trial migration on a copy failed, the live database was not touched.*UNIQUE constraint failed/
		);
		expect(sha(dbPath)).toBe(before);
		expect(existsSync(`${dbPath}-wal`) ? readFileSync(`${dbPath}-wal`).length : 0).toBe(0);
		expect(readdirSync(dir).filter((f) => f.includes('.trial-'))).toEqual([]);
	});

	it('a migration that deletes rows is refused: row counts must not change', async () => {
		const dir = tempDir();
		const dbPath = await seededDatabase(dir);
		const before = sha(dbPath);
		const migrationsDir = migrationsWith(dir, { name: '20270101000000_oops', sql: 'DELETE FROM "users";\n' });
		await expect(migrateSafely({ dbPath, migrationsDir, clock })).rejects.toThrow(
			/row count of users changed from 2 to 0/
		);
		expect(sha(dbPath)).toBe(before);
	});

	it('a migration may retire a table only by moving its rows: declared and moved is accepted, declared and lost is refused', async () => {
		const dir = tempDir();
		const dbPath = await seededDatabase(dir);
		const retire = (name: string, copy: string) => ({
			name,
			sql: `-- rows-move: settings -> settings_kept\nCREATE TABLE "settings_kept" ("key" TEXT NOT NULL PRIMARY KEY, "value" TEXT);\n${copy}DROP TABLE "settings";\n`
		});
		const before = sha(dbPath);
		const lost = migrationsWith(path.join(dir, 'lost'), retire('20270101000000_retire', ''));
		await expect(migrateSafely({ dbPath, migrationsDir: lost, clock })).rejects.toThrow(
			/settings_kept holds 0 rows after the migration; the 1 moved into it/
		);
		expect(sha(dbPath)).toBe(before);
		const moved = migrationsWith(
			path.join(dir, 'moved'),
			retire('20270101000000_retire', 'INSERT INTO "settings_kept" SELECT "key", "value" FROM "settings";\n')
		);
		expect((await migrateSafely({ dbPath, migrationsDir: moved, clock })).applied).toEqual(['20270101000000_retire']);
		const conn = new Database(dbPath);
		expect(conn.prepare('SELECT key, value FROM settings_kept').all()).toEqual([{ key: 'k', value: 'v' }]);
		conn.close();
	});

	it('an applied migration edited afterwards stops start-up of the real worker process with a clear message', async () => {
		const dir = tempDir();
		const dbPath = await seededDatabase(dir);
		const conn = new Database(dbPath);
		conn.prepare(`UPDATE _prisma_migrations SET checksum = 'edited'`).run();
		conn.close();
		const before = sha(dbPath);
		const result = await runBuiltWorker({ env: { DB_PATH: dbPath, DATA_DIR: dir } });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(
			/worker refuses to start: .*migration 20261129115954_init was changed after it was applied/
		);
		expect(sha(dbPath)).toBe(before);
	});
});
