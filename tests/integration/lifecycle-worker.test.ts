import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HOUR } from '../../src/lib/server/time/clock.ts';
import { runBuiltWorker, startBuiltWorker, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { writeFileAt } from './lifecycle-fixtures.ts';

// The promises about the real worker process: the lifecycle tasks run in it, and an out-of-range
// PHOTO_TTL_HOURS (a legal upper bound) stops it before it touches anything.

describe('the worker process and the data lifecycle', () => {
	const tempDir = useTempDir('kiosk-worker-lifecycle-');

	it.each(['0', '73', 'abc'])(
		'PHOTO_TTL_HOURS=%s stops start-up with a message naming the variable',
		async (value) => {
			const dir = tempDir();
			const result = await runBuiltWorker({
				env: { DB_PATH: path.join(dir, 'app.db'), DATA_DIR: dir, PHOTO_TTL_HOURS: value }
			});
			expect(result.code).toBe(1);
			expect(result.stderr).toMatch(
				/worker refuses to start: Invalid configuration:\s+- PHOTO_TTL_HOURS must be (a whole number )?from 1 to 72/
			);
			expect(existsSync(path.join(dir, 'app.db'))).toBe(false);
			expect(existsSync(path.join(dir, 'main.lock'))).toBe(false);
		},
		60_000
	);

	it('at start the worker sweeps expired files, runs the retention pass, takes the first daily backup, and records it', async () => {
		const dir = tempDir();
		const now = Date.now();
		const expired = writeFileAt(path.join(dir, 'sessions/tokOld/selfie_1.jpg'), new Date(now - 2 * HOUR));
		const fresh = writeFileAt(path.join(dir, 'sessions/tokNew/selfie_2.jpg'), new Date(now - 5 * 60_000));
		const backupDir = path.join(dir, 'backups-here');
		const worker = startBuiltWorker({
			env: {
				DB_PATH: path.join(dir, 'app.db'),
				DATA_DIR: dir,
				BACKUP_DIR: backupDir,
				PHOTO_TTL_HOURS: '1',
				TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
				LOG_LEVEL: 'info'
			}
		});
		try {
			const log = await waitForOutput(
				worker,
				(text) =>
					text.includes('ttl sweep done') &&
					text.includes('retention pass done') &&
					text.includes('database backup written'),
				60_000
			);
			expect(log).toMatch(/"deletedFiles":1.*ttl sweep done/);
		} finally {
			worker.kill('SIGTERM');
			await worker.finished;
		}
		expect(existsSync(expired)).toBe(false);
		expect(existsSync(fresh)).toBe(true);
		expect(readdirSync(backupDir).filter((n) => n.endsWith('.db.gz'))).toHaveLength(1);
		const db = new Database(path.join(dir, 'app.db'), { readonly: true });
		const setting = (key: string) =>
			db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck().get(key) as string | undefined;
		expect(Date.parse(setting('last_sweep_at')!)).toBeGreaterThanOrEqual(now);
		expect(JSON.parse(setting('last_backup')!)).toMatchObject({ integrity: 'ok' });
		db.close();
	}, 90_000);
});
