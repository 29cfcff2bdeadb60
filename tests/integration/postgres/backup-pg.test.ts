import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastBackup } from '../../../src/lib/server/backup/backup-status.ts';
import { createPgBackup } from '../../../src/lib/server/backup/create-pg-backup.ts';
import { runTool, type ToolRunner } from '../../../src/lib/server/backup/pg-tools.ts';
import { restorePgBackup } from '../../../src/lib/server/backup/restore-pg.ts';
import { RestoreError } from '../../../src/lib/server/backup/restore.ts';
import { openPostgresDatabase } from '../../../src/lib/server/db/client.ts';
import { eraseGuest } from '../../../src/lib/server/lifecycle/guest-erasure.ts';
import { silentLogger } from '../../../src/lib/server/log/logger.ts';
import { FakeClock, HOUR } from '../../../src/lib/server/time/clock.ts';
import { runBackupIfDue } from '../../../src/worker/tasks/backup.task.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertGuest } from '../lifecycle-fixtures.ts';
import { localFileStore } from '../../helpers/file-store.ts';

const T0 = '2027-03-01T02:00:00.000Z';

/** Runs the real programs and keeps every command line and environment they were given. */
function recordingRunner(): { run: ToolRunner; calls: { command: string; args: string[]; env: NodeJS.ProcessEnv }[] } {
	const calls: { command: string; args: string[]; env: NodeJS.ProcessEnv }[] = [];
	return { calls, run: (command, args, env) => (calls.push({ command, args, env }), runTool(command, args, env)) };
}

describe('backups on PostgreSQL (pg_dump)', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('kiosk-pg-backup-');

	it('backup → erase a guest → restore: the guest stays erased, the rows changed since are back', async () => {
		const { db, url } = database();
		const clock = new FakeClock(T0);
		const key = randomBytes(32);
		const dir = tempDir();
		await insertGuest(db, { id: 7001n, at: T0, packName: 'u7001_1_by_sticker_kiosk_bot' });
		await insertGuest(db, { id: 7002n, at: T0 });
		const backup = await createPgBackup({ url, backupDir: path.join(dir, 'backups'), clock, logger: silentLogger });
		expect(path.basename(backup.file)).toBe('app-20270301-020000.pgdump');
		expect(statSync(backup.file).mode & 0o777).toBe(0o600);

		clock.advance(HOUR);
		await eraseGuest({ db, clock, pseudonymKey: key, fileStore: localFileStore(dir) }, 7001n, 'forget');
		await db.session.deleteMany({ where: { telegramUserId: 7002n } }); // a loss the backup repairs
		await db.$disconnect();

		clock.advance(HOUR);
		const result = await restorePgBackup({ backupFile: backup.file, url, clock, pseudonymKey: key });
		const restored = openPostgresDatabase(url);
		try {
			expect(result.reapplied).toEqual({ guests: 1, leads: 0 });
			expect(await restored.user.findMany({ select: { telegramUserId: true } })).toEqual([{ telegramUserId: 7002n }]);
			expect(await restored.session.count({ where: { telegramUserId: 7002n } })).toBe(1);
			expect(await restored.job.count({ where: { telegramUserId: 7001n } })).toBe(0);
			expect(await restored.erasure.findMany({ select: { kind: true, reason: true } })).toEqual([
				{ kind: 'guest', reason: 'forget' }
			]);
			expect(result.counts).toMatchObject({ users: 1, sessions: 1, jobs: 1 });
			expect(result.keptAside && existsSync(result.keptAside)).toBe(true);
			const note = await restored.setting.findUniqueOrThrow({ where: { key: 'last_restore' } });
			expect(JSON.parse(note.value)).toMatchObject({
				from: 'app-20270301-020000.pgdump',
				backupTakenAt: T0,
				reapplied: { guests: 1, leads: 0 }
			});
		} finally {
			await restored.$disconnect();
		}
	}, 60_000);

	it('keeps the newest 14 backups of either kind and records the last one for the Health page (the worker task)', async () => {
		const { url } = database();
		const db = openPostgresDatabase(url);
		const backupDir = path.join(tempDir(), 'backups');
		const clock = new FakeClock(T0);
		expect(
			await runBackupIfDue({ db, clock, logger: silentLogger, database: { engine: 'postgresql', url }, backupDir })
		).toBe('taken');
		for (let day = 10; day < 24; day++)
			writeFileSync(path.join(backupDir, `app-202702${day}-020000.${day % 2 ? 'pgdump' : 'db.gz'}`), 'older');
		clock.advance(24 * HOUR);
		expect(
			await runBackupIfDue({ db, clock, logger: silentLogger, database: { engine: 'postgresql', url }, backupDir })
		).toBe('taken');
		const names = readdirSync(backupDir).sort();
		expect(names).toHaveLength(14);
		expect(names[0]).toBe('app-20270212-020000.db.gz');
		expect(names.slice(-2)).toEqual(['app-20270301-020000.pgdump', 'app-20270302-020000.pgdump']);
		expect(await readLastBackup(db)).toMatchObject({
			at: '2027-03-02T02:00:00.000Z',
			file: path.join(backupDir, 'app-20270302-020000.pgdump'),
			integrity: 'ok'
		});
		await db.$disconnect();
	}, 60_000);

	it('passes the password only through the environment, never on a command line', async () => {
		const { url } = database();
		const password = decodeURIComponent(new URL(url).password);
		expect(password.length).toBeGreaterThan(0);
		const recorded = recordingRunner();
		const dir = tempDir();
		const backup = await createPgBackup({
			url,
			backupDir: dir,
			clock: new FakeClock(T0),
			logger: silentLogger,
			run: recorded.run
		});
		await restorePgBackup({
			backupFile: backup.file,
			url,
			clock: new FakeClock(T0),
			pseudonymKey: randomBytes(32),
			run: recorded.run
		});
		const commands = recorded.calls.map((c) => path.basename(c.command));
		expect(commands).toEqual(expect.arrayContaining(['pg_dump', 'pg_restore']));
		for (const call of recorded.calls) expect([call.command, ...call.args].join(' ')).not.toContain(password);
		const connecting = recorded.calls.filter((c) => c.args.includes('--dbname'));
		expect(connecting.length).toBeGreaterThanOrEqual(3); // the backup, the copy kept aside, the restore
		for (const call of connecting) expect(call.env.PGPASSWORD).toBe(password);
	}, 60_000);

	it('says which pg_dump is missing, or which one has the wrong version, before dumping anything', async () => {
		const { url } = database();
		const empty = tempDir();
		const backupDir = path.join(empty, 'backups');
		const options = { url, backupDir, clock: new FakeClock(T0), logger: silentLogger };
		await expect(
			createPgBackup({ ...options, toolSearch: { versionsBase: path.join(empty, 'none'), pathDirs: [empty] } })
		).rejects.toThrow(
			/^no pg_dump of PostgreSQL \d+ found under .* or on PATH: apt-get install -y postgresql-client-\d+$/
		);
		const oldBin = path.join(tempDir(), 'bin');
		const fake = path.join(oldBin, 'pg_dump');
		mkdirSync(oldBin);
		writeFileSync(fake, '#!/bin/sh\necho "pg_dump (PostgreSQL) 9.6.24"\n');
		chmodSync(fake, 0o755);
		await expect(
			createPgBackup({ ...options, toolSearch: { versionsBase: path.join(empty, 'none'), pathDirs: [oldBin] } })
		).rejects.toThrow(`(${fake} is version 9)`);
		expect(existsSync(backupDir)).toBe(false);
	});

	it('refuses to restore while a worker’s or web process’s heartbeat is fresh, and says which process', async () => {
		const { db, url } = database();
		const clock = new FakeClock(T0);
		const backup = await createPgBackup({ url, backupDir: tempDir(), clock, logger: silentLogger });
		await db.workerProcess.create({
			data: {
				id: 'kiosk-2:4242:1',
				hostname: 'kiosk-2',
				pid: 4242,
				version: '1.0.0',
				slots: 2,
				startedAt: T0,
				heartbeatAt: T0
			}
		});
		clock.advance(10_000);
		await insertGuest(db, { id: 7100n, at: T0 }); // written after the backup: a refused restore keeps it
		const attempt = restorePgBackup({ backupFile: backup.file, url, clock, pseudonymKey: randomBytes(32) });
		await expect(attempt).rejects.toThrow(RestoreError);
		await expect(attempt).rejects.toThrow(/1 worker\(s\) still running: kiosk-2 pid 4242 .*Stop every worker/);
		expect(await db.user.count({ where: { telegramUserId: 7100n } })).toBe(1);
		// A web process (registered on PostgreSQL) counts as well, named as one.
		await db.workerProcess.create({
			data: {
				id: 'web-1:300:1',
				kind: 'web',
				hostname: 'web-1',
				pid: 300,
				version: '1.0.0',
				startedAt: T0,
				heartbeatAt: clock.now().toISOString()
			}
		});
		await expect(
			restorePgBackup({ backupFile: backup.file, url, clock, pseudonymKey: randomBytes(32) })
		).rejects.toThrow(
			`1 worker(s) and 1 web process(es) still running: kiosk-2 pid 4242 (worker, heartbeat ${T0}), web-1 pid 300 (web process, heartbeat ${clock.now().toISOString()}). Stop every worker and web process first`
		);
		await db.workerProcess.updateMany({
			where: { id: { in: ['kiosk-2:4242:1', 'web-1:300:1'] } },
			data: { stoppedAt: clock.now().toISOString() }
		});
	}, 60_000);
});
