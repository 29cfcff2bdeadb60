import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_WEB_ENTRY, exitOrKill, freePort, spawnBuiltWeb, waitForHealth } from '../helpers/built-web.ts';
import { PROCESS_WAIT_MS, runTs } from '../helpers/node-process.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const WEB_PORT = await freePort();

describe('restore while the web process runs', () => {
	const tempDir = useTempDir('kiosk-restore-web-');

	it.skipIf(!existsSync(BUILT_WEB_ENTRY))(
		'finding 5: restore refuses while the web process runs (it holds DATA_DIR/web.lock), and works once it stopped',
		async () => {
			const dataDir = tempDir();
			const { db, dbPath } = await createTestDb(dataDir);
			await db.$disconnect();
			const env = { DB_PATH: dbPath, DATA_DIR: dataDir, BACKUP_DIR: path.join(dataDir, 'backups') };
			expect((await runTs('scripts/backup.ts', { env })).code).toBe(0);

			const web = spawnBuiltWeb({ port: WEB_PORT, dataDir });
			try {
				await waitForHealth(web);
				const lockPath = path.join(dataDir, 'web.lock');
				const refused = await runTs('scripts/restore.ts', { env, args: ['latest'] });
				expect(refused.code, refused.stdout + refused.stderr).toBe(1);
				expect(refused.stderr).toContain(
					`restore refused: the web process (pid ${web.pid}) holds ${lockPath}: stop the web and worker services first`
				);
				expect(readdirSync(dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);
				expect(readFileSync(lockPath, 'utf8').trim()).toBe(String(web.pid));
				expect(readFileSync(path.join(dataDir, 'web.pid'), 'utf8').trim()).toBe(String(web.pid));

				// Same discipline as the worker's lock: a second web process on this DATA_DIR is refused.
				const second = await exitOrKill(spawnBuiltWeb({ port: WEB_PORT, dataDir }), PROCESS_WAIT_MS);
				expect(second.code).toBe(1);
				expect(second.stderr).toContain(
					`web process refuses to start: another web process (pid ${web.pid}) is already running with ${lockPath}`
				);

				web.kill('SIGTERM');
				await web.finished;
				expect(existsSync(lockPath)).toBe(false);
				const restored = await runTs('scripts/restore.ts', { env, args: ['latest'] });
				expect(restored.code, restored.stderr).toBe(0);
				expect(restored.stdout).toMatch(/previous database kept as .*before-restore/);
			} finally {
				web.kill('SIGKILL');
			}
		},
		3 * PROCESS_WAIT_MS
	);
});
