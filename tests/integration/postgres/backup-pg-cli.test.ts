import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastBackup } from '../../../src/lib/server/backup/backup-status.ts';
import { eraseGuest } from '../../../src/lib/server/lifecycle/guest-erasure.ts';
import { loadPseudonymKey } from '../../../src/lib/server/lifecycle/pseudonym.ts';
import { FakeClock } from '../../../src/lib/server/time/clock.ts';
import { runTs } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertGuest } from '../lifecycle-fixtures.ts';
import { localFileStore } from '../../helpers/file-store.ts';

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
		expect(backup.stdout).toMatch(
			/backup ok: .*my-backups\/app-\d{8}-\d{6}\.pgdump \(\d+ bytes, archive readable, mode 600\)/
		);
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

describe('npm run replay-erasures (after a point-in-time recovery)', () => {
	const live = usePgTestDb();
	const recovered = usePgTestDb();
	const tempDir = useTempDir('kiosk-pg-replay-cli-');

	it('applies to the recovered database the erasures the old one recorded since the moment', async () => {
		const at = '2027-01-01T00:00:00.000Z';
		const dataDir = tempDir();
		const pseudonymKey = loadPseudonymKey(dataDir);
		for (const { db } of [live(), recovered()]) {
			await insertGuest(db, { id: 51n, at });
			await insertGuest(db, { id: 52n, at });
		}
		// After the moment recovered to, the old database erased guest 51.
		await eraseGuest(
			{
				db: live().db,
				clock: new FakeClock('2027-01-01T05:00:00.000Z'),
				pseudonymKey,
				fileStore: localFileStore(dataDir)
			},
			51n,
			'forget'
		);
		const env = { DATABASE_URL: recovered().url, REPLAY_FROM_URL: live().url, DATA_DIR: dataDir };

		const refused = await runTs('scripts/replay-erasures.ts', { env, args: [] });
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain('usage: REPLAY_FROM_URL=');
		const replay = await runTs('scripts/replay-erasures.ts', { env, args: ['--since', '2027-01-01T04:00:00Z'] });
		expect(replay.stderr).toBe('');
		expect(replay.code).toBe(0);
		expect(replay.stdout).toContain('erasures re-applied: 1 guest(s), 0 lead(s)');
		const { db } = recovered();
		expect(await db.user.findMany({ select: { telegramUserId: true } })).toEqual([{ telegramUserId: 52n }]);
		expect(await db.erasure.count({ where: { reason: 'forget' } })).toBe(1);
		expect(JSON.parse((await db.setting.findUniqueOrThrow({ where: { key: 'last_restore' } })).value)).toMatchObject({
			from: 'point-in-time recovery',
			backupTakenAt: '2027-01-01T04:00:00.000Z'
		});
	}, 120_000);
});
