import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OperatorIdentity } from '../../../src/lib/server/auth/roles.ts';
import { recordBackupSuccess } from '../../../src/lib/server/backup/backup-status.ts';
import { createPgBackup } from '../../../src/lib/server/backup/create-pg-backup.ts';
import { parseConfig } from '../../../src/lib/server/config/config.ts';
import type { Db } from '../../../src/lib/server/db/client.ts';
import { silentLogger } from '../../../src/lib/server/log/logger.ts';
import { FakeClock, SECOND, type Clock } from '../../../src/lib/server/time/clock.ts';
import { createTrpcContext } from '../../../src/lib/server/trpc/init.ts';
import { createCaller } from '../../../src/lib/server/trpc/root.ts';
import { registerWorker } from '../../../src/lib/server/workers/worker-registry.ts';
import { PROJECT_ROOT } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertOperator } from '../console-fixtures.ts';
import { localFileStore } from '../../helpers/file-store.ts';
import { RuntimeSettings } from '../../../src/lib/server/settings/runtime-settings.ts';

const T0 = '2027-05-10T03:00:00.000Z';

/** The console's router on a PostgreSQL configuration (DATABASE_URL, no DB_PATH), as the Health page calls it. */
function pgConsoleCaller(
	db: Db,
	clock: Clock,
	url: string,
	dataDir: string,
	backupDir: string,
	operator: OperatorIdentity
) {
	const config = parseConfig(
		{ NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: dataDir, BACKUP_DIR: backupDir, LOG_LEVEL: 'silent' },
		PROJECT_ROOT
	);
	const app = {
		config,
		db,
		clock,
		logger: silentLogger,
		version: 'test',
		fileStore: localFileStore(config.dataDir),
		runtime: new RuntimeSettings({ db, clock, config })
	};
	return createCaller(
		createTrpcContext(app, new Request('http://localhost/api/trpc'), { operator, clientIp: '10.0.0.7' })
	);
}

/** Backups named as the daily backup names them, one a day before T0 (the oldest first). */
function plantOlderBackups(dir: string, count: number): string[] {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const names = Array.from({ length: count }, (_, i) => `app-202705${String(i + 1).padStart(2, '0')}-030000.pgdump`);
	for (const name of names) writeFileSync(path.join(dir, name), 'an older dump', { mode: 0o600 });
	return names;
}

describe('console Health on PostgreSQL', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('kiosk-pg-health-');

	it('shows the database size, server version and host:port/database, the pg_dump backups newest first (14 kept) and the web processes apart from the workers', async () => {
		const { db, url } = database();
		const clock = new FakeClock(T0);
		const dataDir = tempDir();
		const backupDir = path.join(dataDir, 'backups');
		const planted = plantOlderBackups(backupDir, 9);
		const backup = await createPgBackup({ url, backupDir, clock, logger: silentLogger, keep: 5 });
		await recordBackupSuccess(db, clock, backup);
		await registerWorker(db, clock, {
			id: 'web-1:300:1',
			kind: 'web',
			pid: 300,
			hostname: 'web-1',
			version: 'v2',
			slots: 0
		});
		clock.advance(10 * SECOND);
		const viewer = await insertOperator(db, clock, 'vic', 'viewer');

		const health = await pgConsoleCaller(db, clock, url, dataDir, backupDir, viewer).health.read();

		const { hostname, port, pathname, password } = new URL(url);
		const sizeNow = await db.$queryRawUnsafe<{ bytes: bigint }[]>(
			'SELECT pg_database_size(current_database()) AS bytes'
		);
		expect(health.db).toMatchObject({
			storage: 'server',
			sharedServer: true,
			engine: 'PostgreSQL',
			engineVersion: expect.stringMatching(/^\d+\.\d+/),
			target: `${hostname}:${port}${pathname}`,
			integrity: 'not checked here'
		});
		// The size is the server's own count of the database's pages (it moves as rows are written).
		expect(health.db.bytes).toBeGreaterThan(1024 * 1024);
		expect(Math.abs(health.db.bytes! - Number(sizeNow[0]!.bytes))).toBeLessThan(1024 * 1024);
		expect(JSON.stringify(health.db)).not.toContain(password);
		expect(health.db).not.toHaveProperty('walBytes');
		expect(health.db).not.toHaveProperty('path');

		if (health.db.storage !== 'server') throw new Error('not the database server view');
		// keep: 5 here (the product keeps 14): the backup pruned the planted ones beyond the newest five.
		const kept = [path.basename(backup.file), ...planted.slice(-4).reverse()];
		// The folder stays on the server: the page says where in words, and no path reaches the browser.
		expect(health.db.backups).not.toHaveProperty('dir');
		expect(JSON.stringify(health)).not.toContain(backupDir);
		expect(health.db.backups.kept).toBe(14);
		expect(health.db.backups.files).toEqual(
			kept.map((name) => ({ name, bytes: statSync(path.join(backupDir, name)).size, takenAt: expect.any(String) }))
		);
		expect(health.db.backups.files![0]!.takenAt).toBe(T0);
		expect(health.db.backups.files![1]!.takenAt).toBe('2027-05-09T03:00:00.000Z');
		// The file's name only: the page shows no server path.
		expect(health.lastBackup).toEqual({ at: T0, fileName: path.basename(backup.file), bytes: backup.bytes });

		// The web process is listed as one, and it does not make the worker look alive.
		expect(health.webProcesses.map((p) => [p.hostname, p.pid, p.alive])).toEqual([['web-1', 300, true]]);
		expect(health.workers).toEqual([]);
		expect(health.service.worker).toEqual({ alive: false, heartbeatAgeSeconds: null });
		expect(health.service.status).toBe('degraded');
	}, 60_000);

	it('says when BACKUP_DIR holds no backup yet', async () => {
		const { db, url } = database();
		const clock = new FakeClock(T0);
		const dataDir = tempDir();
		const viewer = await insertOperator(db, clock, 'nora', 'viewer');
		const health = await pgConsoleCaller(db, clock, url, dataDir, path.join(dataDir, 'none-yet'), viewer).health.read();
		expect(health.db).toMatchObject({
			storage: 'server',
			backups: { kept: 14, files: [] }
		});
	});
});
