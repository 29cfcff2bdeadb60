import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startBuiltWorker, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** The worker against a data dir of its own; Telegram is a closed port (the bot keeps retrying getMe). */
function workerEnv(dataDir: string): NodeJS.ProcessEnv {
	return {
		DATA_DIR: dataDir,
		DB_PATH: path.join(dataDir, 'app.db'),
		TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
		TELEGRAM_BOT_TOKEN: ''
	};
}

function deadPid(): number {
	const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
	return Number(child.stdout.toString());
}

describe('the worker process', () => {
	const tempDir = useTempDir();

	it('holds DATA_DIR/main.lock: a second worker is refused with a clear message', async () => {
		const dataDir = tempDir();
		const first = startBuiltWorker({ env: workerEnv(dataDir) });
		try {
			await waitForOutput(first, (out) => out.includes('worker started'));
			expect(readFileSync(path.join(dataDir, 'main.pid'), 'utf8').trim()).toBe(String(first.pid));
			const second = await startBuiltWorker({ env: workerEnv(dataDir) }).finished;
			expect(second.code).toBe(1);
			expect(second.stderr).toContain(
				`worker refuses to start: another worker (pid ${first.pid}) is already running with ${path.join(dataDir, 'main.lock')}`
			);
		} finally {
			first.kill('SIGKILL');
		}
	});

	it('takes over a stale lock left by a worker that died', async () => {
		const dataDir = tempDir();
		writeFileSync(path.join(dataDir, 'main.lock'), `${deadPid()}\n`);
		const worker = startBuiltWorker({ env: workerEnv(dataDir) });
		try {
			await waitForOutput(worker, (out) => out.includes('worker started'));
			expect(readFileSync(path.join(dataDir, 'main.lock'), 'utf8').trim()).toBe(String(worker.pid));
		} finally {
			worker.kill('SIGKILL');
		}
	});

	it('on SIGTERM stops its tasks, marks itself stopped, releases the lock and exits 0', async () => {
		const dataDir = tempDir();
		const worker = startBuiltWorker({ env: workerEnv(dataDir) });
		await waitForOutput(worker, (out) => out.includes('worker started'));
		worker.kill('SIGTERM');
		const result = await worker.finished;
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('"msg":"worker stopped"');
		expect(existsSync(path.join(dataDir, 'main.lock'))).toBe(false);
		expect(existsSync(path.join(dataDir, 'main.pid'))).toBe(false);
		const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
		const row = db.prepare('SELECT pid, stopped_at, busy_slots FROM worker_processes').get() as {
			pid: number;
			stopped_at: string | null;
		};
		expect(row.pid).toBe(worker.pid);
		expect(row.stopped_at).not.toBeNull();
		db.close();
	});
});
