import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastBackup } from '../../../src/lib/server/backup/backup-status.ts';
import { runTs } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertGuest } from '../lifecycle-fixtures.ts';

describe('npm run backup / npm run restore with DATABASE_URL', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('kiosk-pg-backup-cli-');

	it('backs up with pg_dump, records last_backup, and restores the latest dump; the password is never printed', async () => {
		const { db, url } = database();
		await insertGuest(db, { id: 41n, at: '2027-01-01T00:00:00.000Z' });
		const dataDir = tempDir();
		const backupDir = path.join(dataDir, 'my-backups');
		const env = { DATABASE_URL: url, DATA_DIR: dataDir, BACKUP_DIR: backupDir };
		const password = decodeURIComponent(new URL(url).password);

		const backup = await runTs('scripts/backup.ts', { env });
		expect(backup.stderr).toBe('');
		expect(backup.code).toBe(0);
		expect(backup.stdout).toMatch(/backup ok: .*my-backups\/app-\d{8}-\d{6}\.pgdump \(\d+ bytes, archive readable, mode 600\)/);
		const [file] = readdirSync(backupDir);
		expect(await readLastBackup(db)).toMatchObject({ integrity: 'ok', file: path.join(backupDir, file!) });
		await db.user.deleteMany({});
		await db.$disconnect();

		const restore = await runTs('scripts/restore.ts', { env, args: ['latest'] });
		expect(restore.stderr).toBe('');
		expect(restore.code).toBe(0);
		expect(restore.stdout).toContain('erasures re-applied: 0 guest(s), 0 lead(s)');
		expect(restore.stdout).toMatch(/users\s+1/);
		expect(restore.stdout).toMatch(/previous database kept as .*my-backups\/before-restore-\d{8}-\d{6}\.pgdump/);
		for (const output of [backup.stdout, restore.stdout]) expect(output).not.toContain(password);
	}, 120_000);
});
