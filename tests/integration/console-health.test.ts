import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordBackupFailure, recordBackupSuccess, recordSweep } from '../../src/lib/server/backup/backup-status.ts';
import { FakeClock, HOUR, SECOND } from '../../src/lib/server/time/clock.ts';
import { markWorkerStopped, registerWorker } from '../../src/lib/server/workers/worker-registry.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { consoleCaller, insertOperator } from './console-fixtures.ts';

const T0 = '2027-04-01T09:00:00.000Z';

/** The Health page's data on SQLite, through the real router: the file, its WAL, the copies next to it. */
describe('console Health on SQLite', () => {
	const testDb = useTestDb('kiosk-console-health-');

	it('shows the database file and WAL sizes, the app.db.bak-* copies and the worker launches', async () => {
		const { db, dir, dbPath } = await testDb();
		const clock = new FakeClock(T0);
		writeFileSync(`${dbPath}.bak-20270301-010000`, 'copy');
		writeFileSync(`${dbPath}.bak-20270302-010000-before-reset`, 'copy');
		await registerWorker(db, clock, { id: 'box:11:1', pid: 11, hostname: 'box', version: 'v1', slots: 3 });
		await registerWorker(db, clock, { id: 'box:12:2', pid: 12, hostname: 'box', version: 'v1', slots: 3 });
		clock.advance(SECOND);
		await markWorkerStopped(db, clock, 'box:12:2');
		clock.advance(5 * SECOND);
		const viewer = await insertOperator(db, clock, 'vic', 'viewer');

		const health = await consoleCaller(db, clock, dir, viewer).health.read();

		expect(health.db).toEqual({
			storage: 'file',
			sharedServer: false,
			engine: 'SQLite',
			engineVersion: expect.stringMatching(/^3\.\d+\.\d+$/),
			bytes: statSync(dbPath).size,
			walBytes: statSync(`${dbPath}-wal`).size,
			integrity: 'not checked here',
			copies: { count: 2, newest: path.basename(`${dbPath}.bak-20270302-010000-before-reset`) }
		});
		// Newest heartbeat first: the stop is the last beat of a launch.
		expect(health.workers.map((w) => [w.id, w.alive, w.slots])).toEqual([
			['box:12:2', false, 3],
			['box:11:1', true, 3]
		]);
		expect(health.webProcesses).toEqual([]);
		expect(health.service.worker).toEqual({ alive: true, heartbeatAgeSeconds: 6 });
		// No server path reaches the browser: the disk and the database file are described, not named.
		expect(JSON.stringify(health)).not.toContain(dir);
	});

	it('gives the last backup as when, how big and the file’s name — no server path — and the last sweep’s time', async () => {
		const { db, dir } = await testDb();
		const clock = new FakeClock(T0);
		const viewer = await insertOperator(db, clock, 'vic', 'viewer');
		const before = await consoleCaller(db, clock, dir, viewer).health.read();
		expect([before.lastBackup, before.lastSweep]).toEqual([null, null]);

		await recordBackupSuccess(db, clock, {
			file: path.join(dir, 'backups', 'app-20270401-090000.db.gz'),
			bytes: 19_008,
			takenAt: T0,
			removed: []
		});
		await recordSweep(db, clock);
		const health = await consoleCaller(db, clock, dir, viewer).health.read();

		expect(health.lastBackup).toEqual({ at: T0, fileName: 'app-20270401-090000.db.gz', bytes: 19_008 });
		expect(health.lastSweep).toBe(T0);
	});

	it('gives a failed backup newer than the good one as its cause only — no raw error, no path — until one succeeds', async () => {
		const { db, dir } = await testDb();
		const clock = new FakeClock(T0);
		const viewer = await insertOperator(db, clock, 'vic', 'viewer');
		const read = () => consoleCaller(db, clock, dir, viewer).health.read();
		const backupFolder = path.join(dir, 'backups');

		await recordBackupFailure(db, clock, new Error(`EACCES: permission denied, mkdir '${backupFolder}'`));
		expect((await read()).lastBackupFailure).toEqual({ at: T0, cause: 'no-permission' });

		clock.advance(HOUR);
		const good = clock.now().toISOString();
		await recordBackupSuccess(db, clock, {
			file: path.join(backupFolder, 'app-20270401-100000.db.gz'),
			bytes: 19_008,
			takenAt: good,
			removed: []
		});
		// The good backup came after: the old failure is overcome and not shown.
		expect((await read()).lastBackupFailure).toBeNull();

		clock.advance(24 * HOUR);
		await recordBackupFailure(db, clock, new Error(`ENOSPC: no space left on device, write '${backupFolder}/app.db'`));
		const health = await read();
		expect(health.lastBackupFailure).toEqual({ at: clock.now().toISOString(), cause: 'disk-full' });
		expect(health.lastBackup?.at).toBe(good);
		expect(JSON.stringify(health)).not.toContain(dir);
		expect(JSON.stringify(health)).not.toContain('ENOSPC');
	});
});
