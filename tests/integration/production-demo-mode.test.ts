import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { exitOrKill, freePortPair, spawnBuiltWeb, waitForHealth } from '../helpers/built-web.ts';
import { PROCESS_WAIT_MS, startBuiltWorker, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** SILENT_EMULATOR_PORT: nothing listens there (the demo's emulator address), so the worker only keeps retrying getMe. */
const [WEB_PORT, SILENT_EMULATOR_PORT] = await freePortPair();

/** Production settings without a bot token (the other production requirements met). */
function productionWithoutToken(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {
		NODE_ENV: 'production',
		DATA_DIR: dataDir,
		DB_PATH: path.join(dataDir, 'app.db'),
		PUBLIC_BASE_URL: `http://127.0.0.1:${WEB_PORT}`,
		LEADS_IP_SALT: 'a-salt-of-at-least-sixteen-chars',
		TELEGRAM_BOT_TOKEN: '',
		TELEGRAM_API_ROOT: '',
		EMULATOR_PORT: String(SILENT_EMULATOR_PORT),
		DEMO_MODE: '',
		...extra
	};
}

const REFUSAL = /TELEGRAM_BOT_TOKEN is required in production .*set DEMO_MODE=1 to run the demo on purpose/;

describe('production without a Telegram bot token', () => {
	const tempDir = useTempDir('kiosk-demo-mode-');

	it(
		'finding 4: the worker and the web process refuse to start in production without a token',
		async () => {
			const dataDir = tempDir();
			const env = productionWithoutToken(dataDir);
			const worker = await exitOrKill(startBuiltWorker({ env }), PROCESS_WAIT_MS);
			expect(worker.stdout, worker.stdout).not.toContain('worker started');
			expect(worker.code).toBe(1);
			expect(worker.stderr).toContain('worker refuses to start: Invalid configuration');
			expect(worker.stderr).toMatch(REFUSAL);

			const web = await exitOrKill(spawnBuiltWeb({ port: WEB_PORT, dataDir, env }), PROCESS_WAIT_MS);
			expect(web.stdout, web.stdout).not.toContain('web process ready');
			expect(web.code).toBe(1);
			expect(web.stderr).toContain('web process refuses to start: Invalid configuration');
			expect(web.stderr).toMatch(REFUSAL);
		},
		3 * PROCESS_WAIT_MS
	);

	it(
		'finding 4: DEMO_MODE=1 runs the demo on purpose, loudly: a warning and a banner at start, demo: true on /health',
		async () => {
			const dataDir = tempDir();
			const env = productionWithoutToken(dataDir, { DEMO_MODE: '1' });
			const worker = startBuiltWorker({ env });
			const web = spawnBuiltWeb({ port: WEB_PORT, dataDir, env });
			try {
				await waitForOutput(worker, (out) => out.includes('worker started'));
				const health = await waitForHealth(web);
				expect(await health.json()).toMatchObject({ demo: true });
				for (const [name, child] of [
					['worker', worker],
					['web', web]
				] as const) {
					const { stdout, stderr } = child.output();
					const warning = stdout.split('\n').find((line) => line.includes('DEMO MODE'));
					expect(warning, `${name} stdout:\n${stdout}`).toBeDefined();
					expect(JSON.parse(warning!)).toMatchObject({ level: 40, process: name });
					expect(stderr, `${name} stderr`).toMatch(/DEMO MODE[\s\S]*not connected to Telegram/);
				}
				// The warning is on the console's Logs page too (log_entries), from both processes.
				const loggedBy = () => {
					const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
					try {
						return db
							.prepare(`SELECT process FROM log_entries WHERE message LIKE 'DEMO MODE%' ORDER BY process`)
							.pluck()
							.all();
					} finally {
						db.close();
					}
				};
				await expect.poll(loggedBy, { timeout: 10_000 }).toEqual(['web', 'worker']);
			} finally {
				worker.kill('SIGKILL');
				web.kill('SIGKILL');
			}
		},
		3 * PROCESS_WAIT_MS
	);

	it(
		'finding 4: DEMO_MODE=1 next to a real token is refused (a demo has no real bot)',
		async () => {
			const dataDir = tempDir();
			const env = productionWithoutToken(dataDir, {
				DEMO_MODE: '1',
				TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ'
			});
			const worker = await exitOrKill(startBuiltWorker({ env }), PROCESS_WAIT_MS);
			expect(worker.code).toBe(1);
			expect(worker.stderr).toContain('DEMO_MODE must not be 1 while TELEGRAM_BOT_TOKEN is set');
		},
		2 * PROCESS_WAIT_MS
	);
});
