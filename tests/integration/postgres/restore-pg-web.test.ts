import { existsSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/lib/server/time/clock.ts';
import { listWorkerLaunches } from '../../../src/lib/server/workers/launch-history.ts';
import { BUILT_WEB_ENTRY, callTrpc, signIn, startBuiltWeb } from '../../helpers/built-web.ts';
import { runTs } from '../../helpers/node-process.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { insertOperator, TEST_PASSWORD } from '../console-fixtures.ts';

/**
 * A web process on PostgreSQL has no lock a restore on another machine could see: it registers
 * in worker_processes (kind 'web'), and `npm run restore` refuses while that registration is alive.
 */
describe('restore on PostgreSQL while a web process runs', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('kiosk-pg-restore-web-');

	it.skipIf(!existsSync(BUILT_WEB_ENTRY))(
		'refuses while the web process beats, naming it; the Health page and launch history list it; restores once it stopped cleanly',
		async () => {
			const { db, url } = database();
			const dataDir = tempDir();
			const backupDir = path.join(dataDir, 'backups');
			const env = { DATABASE_URL: url, DB_PATH: '', DATA_DIR: dataDir, BACKUP_DIR: backupDir };
			expect((await runTs('scripts/backup.ts', { env })).code).toBe(0);

			const web = await startBuiltWeb(tempDir(), { DATABASE_URL: url, DB_PATH: '', BACKUP_DIR: backupDir });
			try {
				// Its start line names the database it runs on, not the unused SQLite path.
				const ready = web
					.output()
					.split('\n')
					.find((line) => line.includes('"web process ready"'));
				expect(JSON.parse(ready ?? '{}')).toMatchObject({
					db: `postgresql 127.0.0.1:${new URL(url).port}${new URL(url).pathname}`
				});
				const refused = await runTs('scripts/restore.ts', { env, args: ['latest'] });
				expect(refused.code, refused.stdout + refused.stderr).toBe(1);
				expect(refused.stderr).toMatch(
					new RegExp(
						`^restore refused: 1 web process\\(es\\) still running: ${hostname()} pid ${web.pid} \\(web process, heartbeat \\S+\\)\\. Stop every worker and web process first`
					)
				);
				expect(readdirSync(backupDir).filter((name) => name.startsWith('before-restore'))).toEqual([]);

				await insertOperator(db, systemClock, 'olga', 'viewer');
				const health = await callTrpc(web, await signIn(web, 'olga', TEST_PASSWORD), 'query', 'health.read');
				expect(health.body.result?.data).toMatchObject({
					db: {
						storage: 'server',
						sharedServer: true,
						engine: 'PostgreSQL',
						target: expect.stringMatching(/^127\.0\.0\.1:\d+\//)
					},
					webProcesses: [{ pid: web.pid, hostname: hostname(), alive: true }],
					workers: [],
					service: { worker: { alive: false } }
				});
			} finally {
				await web.stop();
			}
			// It left on its own after SIGTERM (no SIGKILL): the stop was recorded and the pool closed.
			expect(await web.exit).toEqual({ code: 0, signal: null });

			const [launch] = await listWorkerLaunches(db, systemClock);
			expect(launch).toMatchObject({ kind: 'web', pid: web.pid, state: 'stopped', ending: 'clean stop' });
			await db.$disconnect();
			const restored = await runTs('scripts/restore.ts', { env, args: ['latest'] });
			expect(restored.code, restored.stderr).toBe(0);
			expect(restored.stdout).toMatch(/previous database kept as .*before-restore-\d{8}-\d{6}\.pgdump/);
		},
		120_000
	);
});
