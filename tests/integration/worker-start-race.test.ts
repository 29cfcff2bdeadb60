import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBuiltWorker, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/**
 * Scheduled tasks that run at start (the leads outbox, the broadcasts) ask the worker whether it is
 * stopping. They used to read a `let stopping` declared further down main(), after an await (the
 * gemini provider's import): a task that ran in that window threw "Cannot access 'stopping' before
 * initialization" (5 of 20 starts). Several workers started at once, each with a leads chat set
 * (its outbox asks at its first tick) and the gemini provider (a slow import), under the load of
 * each other's start.
 */
function workerEnv(dataDir: string): NodeJS.ProcessEnv {
	return {
		DATA_DIR: dataDir,
		DB_PATH: path.join(dataDir, 'app.db'),
		TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
		TELEGRAM_BOT_TOKEN: '',
		LEADS_CHAT_ID: '-100123',
		IMAGE_PROVIDER: 'gemini',
		GEMINI_API_KEY: 'test-key',
		GEMINI_BASE_URL: 'http://127.0.0.1:9'
	};
}

describe('worker start', () => {
	const tempDir = useTempDir();

	it(
		'never reads the stopping flag before it exists, with several workers starting at once',
		{ timeout: 90_000 },
		async () => {
			const workers = Array.from({ length: 3 }, () => startBuiltWorker({ env: workerEnv(tempDir()) }));
			try {
				await Promise.all(workers.map((w) => waitForOutput(w, (out) => out.includes('worker started'), 60_000)));
				// Every start-up task has had its first run and a second tick (the outboxes tick each second).
				await new Promise((resolve) => setTimeout(resolve, 2_500));
				for (const worker of workers) {
					const { stdout, stderr } = worker.output();
					expect(stdout + stderr).not.toContain('before initialization');
					expect(stdout + stderr).not.toContain('scheduled task failed');
				}
			} finally {
				for (const worker of workers) worker.kill('SIGKILL');
			}
		}
	);
});
