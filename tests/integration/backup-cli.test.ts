import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readLastBackup } from '../../src/lib/server/backup/backup-status.ts';
import { readSetting } from '../../src/lib/server/settings/settings.repository.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { runBackupIfDue } from '../../src/worker/tasks/backup.task.ts';
import { runTs } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest } from './lifecycle-fixtures.ts';

describe('npm run backup / npm run restore (scripts/backup.ts, scripts/restore.ts)', () => {
	const tempDir = useTempDir('kiosk-backup-cli-');

	it('backs up, records last_backup, lists, and restores the latest backup after the services stopped', async () => {
		const dataDir = tempDir();
		const { db, dbPath } = await createTestDb(dataDir);
		await insertGuest(db, { id: 31n, at: '2027-01-01T00:00:00.000Z' });
		await db.$disconnect();
		const backupDir = path.join(dataDir, 'my-backups');
		const env = { DB_PATH: dbPath, DATA_DIR: dataDir, BACKUP_DIR: backupDir };

		const backup = await runTs('scripts/backup.ts', { env });
		expect(backup.stderr).toBe('');
		expect(backup.code).toBe(0);
		expect(backup.stdout).toMatch(
			/backup ok: .*my-backups\/app-\d{8}-\d{6}\.db\.gz \(\d+ bytes, integrity ok, mode 600\)/
		);
		const [file] = readdirSync(backupDir);
		expect(statSync(path.join(backupDir, file!)).mode & 0o777).toBe(0o600);
		const conn = new Database(dbPath);
		expect(
			JSON.parse(conn.prepare(`SELECT value FROM settings WHERE key = 'last_backup'`).pluck().get() as string)
		).toMatchObject({ integrity: 'ok', file: path.join(backupDir, file!) });
		conn.prepare(`DELETE FROM users`).run();
		conn.close();

		const list = await runTs('scripts/restore.ts', { env, args: ['--list'] });
		expect(list.stdout).toContain(file);
		const restore = await runTs('scripts/restore.ts', { env, args: ['latest'] });
		expect(restore.code).toBe(0);
		expect(restore.stdout).toContain('erasures re-applied: 0 guest(s), 0 lead(s)');
		expect(restore.stdout).toMatch(/users\s+1/);
		expect(restore.stdout).toMatch(/previous database kept as .*app\.db\.bak-\d{8}-\d{6}-before-restore/);
	}, 120_000);

	it('says clearly what is wrong: no such backup, no database to back up', async () => {
		const dataDir = tempDir();
		const env = { DB_PATH: path.join(dataDir, 'app.db'), DATA_DIR: dataDir };
		const restore = await runTs('scripts/restore.ts', { env, args: ['app-20200101-000000.db.gz'] });
		expect(restore.code).toBe(1);
		expect(restore.stderr).toContain('restore refused: no backup "app-20200101-000000.db.gz"');
		const backup = await runTs('scripts/backup.ts', { env });
		expect(backup.code).toBe(1);
		expect(backup.stderr).toContain('backup failed: no database at');
		expect(existsSync(path.join(dataDir, 'app.db'))).toBe(false);
	}, 60_000);
});

describe('the worker’s daily backup task', () => {
	const tempDir = useTempDir('kiosk-backup-task-');

	/** A fresh database at 10:00 and the task's deps, its backups in the data folder's backups/. */
	async function backupTaskWorld() {
		const dataDir = tempDir();
		const { db, dbPath } = await createTestDb(dataDir);
		const clock = new FakeClock('2027-02-01T10:00:00.000Z');
		const deps = {
			db,
			clock,
			logger: silentLogger,
			database: { engine: 'sqlite' as const, path: dbPath },
			backupDir: path.join(dataDir, 'backups')
		};
		return { db, clock, deps };
	}

	it('takes a backup when none is about a day old, otherwise waits; the result is in settings', async () => {
		const { db, clock, deps } = await backupTaskWorld();
		expect(await runBackupIfDue(deps)).toBe('taken');
		expect(await readLastBackup(db)).toMatchObject({ at: '2027-02-01T10:00:00.000Z', integrity: 'ok' });
		clock.advance(HOUR);
		expect(await runBackupIfDue(deps)).toBe('not-due');
		clock.advance(22 * HOUR);
		expect(await runBackupIfDue(deps)).toBe('not-due');
		clock.advance(HOUR);
		expect(await runBackupIfDue(deps)).toBe('taken');
		expect(readdirSync(deps.backupDir)).toHaveLength(2);
		await db.$disconnect();
	});

	it('a backup that cannot be written fails cleanly: no partial file, earlier backups kept, failure recorded', async () => {
		const { db, clock, deps } = await backupTaskWorld();
		expect(await runBackupIfDue(deps)).toBe('taken');
		const before = readdirSync(deps.backupDir);
		clock.advance(24 * HOUR);
		// Even root cannot create files in an immutable directory: the stand-in for a full disk.
		execFileSync('chattr', ['+i', deps.backupDir]);
		try {
			await expect(runBackupIfDue(deps)).rejects.toThrow();
		} finally {
			execFileSync('chattr', ['-i', deps.backupDir]);
		}
		expect(readdirSync(deps.backupDir)).toEqual(before);
		expect(JSON.parse((await readSetting(db, 'last_backup_failure'))!)).toMatchObject({
			at: '2027-02-02T10:00:00.000Z'
		});
		expect((await readLastBackup(db))?.at).toBe('2027-02-01T10:00:00.000Z');
		await db.$disconnect();
	});
});
