import { createServer, type Server } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { freePortPair } from '../helpers/built-web.ts';
import { within } from '../../src/lib/server/time/within.ts';
import { PROCESS_WAIT_MS, startBuiltWorker, startTs, waitForOutput } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/**
 * STAND_IN_PORT: the Telegram stand-in of the first test, then the emulator of the second (never both
 * at once). CLOSED_PORT: nothing listens there, an unreachable Telegram.
 */
const [STAND_IN_PORT, CLOSED_PORT] = await freePortPair();

const BOT_TOKEN = '7777777777:AAHxSecretPartOfTheBotTokenForTests';
const SECRET_PART = BOT_TOKEN.split(':')[1]!;

const errorLines = (text: string) => text.split('\n').filter((line) => /"level":(50|60)/.test(line));

/**
 * A TCP server that plays a broken Telegram, by the first segment of the request path (the
 * worker's TELEGRAM_API_ROOT ends in it): `/reset/…` reads the request and resets the connection
 * mid-call; `/silent/…` reads it and never answers.
 */
function brokenTelegram(port: number): Promise<Server> {
	const server = createServer((socket) => {
		socket.once('data', (chunk) => {
			if (/^\w+ \/reset\//.test(chunk.toString('latin1'))) socket.resetAndDestroy();
		});
		socket.on('error', () => undefined);
	});
	return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function logEntriesOf(dataDir: string): string[] {
	const db = new Database(path.join(dataDir, 'app.db'), { readonly: true });
	try {
		return db
			.prepare(
				`SELECT message || ' ' || coalesce(context, '') FROM log_entries WHERE message LIKE 'Telegram not reachable%'`
			)
			.pluck()
			.all() as string[];
	} finally {
		db.close();
	}
}

describe('the worker when Telegram is down', () => {
	const tempDir = useTempDir('kiosk-telegram-down-');

	it('finding 8: no bot token reaches stdout or log_entries when Telegram is unreachable, times out, or resets mid-call', async () => {
		const server = await brokenTelegram(STAND_IN_PORT);
		const cases = [
			{ name: 'unreachable', apiRoot: `http://127.0.0.1:${CLOSED_PORT}`, reason: 'ECONNREFUSED', urlInCause: true },
			{
				name: 'resets mid-call',
				apiRoot: `http://127.0.0.1:${STAND_IN_PORT}/reset`,
				reason: /ECONNRESET|socket hang up/,
				urlInCause: true
			},
			{
				name: 'never answers',
				apiRoot: `http://127.0.0.1:${STAND_IN_PORT}/silent`,
				reason: 'timed out after 10 seconds',
				urlInCause: false
			}
		].map((scenario) => {
			const dataDir = tempDir();
			const env = {
				DATA_DIR: dataDir,
				DB_PATH: path.join(dataDir, 'app.db'),
				TELEGRAM_BOT_TOKEN: BOT_TOKEN,
				TELEGRAM_API_ROOT: scenario.apiRoot
			};
			return { ...scenario, dataDir, worker: startBuiltWorker({ env }) };
		});
		try {
			await Promise.all(
				cases.map(async ({ name, worker, dataDir, reason, urlInCause }) => {
					await waitForOutput(worker, (out) => out.includes('Telegram not reachable yet'), PROCESS_WAIT_MS);
					await expect
						.poll(() => logEntriesOf(dataDir).length, {
							timeout: PROCESS_WAIT_MS,
							message: `${name}: no log_entries row`
						})
						.toBeGreaterThan(0);
					const { stdout, stderr } = worker.output();
					const failure = stdout.split('\n').find((line) => line.includes('Telegram not reachable yet'))!;
					// The failure is described (what went wrong, where) — only the token is cut out of it.
					expect(failure, name).toMatch(reason);
					if (urlInCause) expect(failure, name).toContain('/bot[redacted]/getMe');
					for (const text of [stdout, stderr, ...logEntriesOf(dataDir)]) {
						expect(text, `${name}: ${text}`).not.toContain(SECRET_PART);
						expect(text, `${name}: ${text}`).not.toContain(BOT_TOKEN.split(':')[0] + ':');
					}
				})
			);
		} finally {
			for (const { worker } of cases) worker.kill('SIGKILL');
			await new Promise((resolve) => server.close(resolve));
		}
	}, 180_000);

	it('finding 14: the worker stops within 5 s of SIGTERM, without an error line, when Telegram went away under its long poll', async () => {
		const dataDir = tempDir();
		const emulator = startTs('tools/telegram-emulator/main.ts', {
			env: { EMULATOR_PORT: String(STAND_IN_PORT), EMULATOR_STATE: 'memory' }
		});
		const worker = startBuiltWorker({
			env: {
				DATA_DIR: dataDir,
				DB_PATH: path.join(dataDir, 'app.db'),
				TELEGRAM_BOT_TOKEN: '',
				TELEGRAM_API_ROOT: '',
				EMULATOR_PORT: String(STAND_IN_PORT)
			}
		});
		try {
			await waitForOutput(emulator, (out) => out.includes('Telegram emulator:'));
			await waitForOutput(worker, (out) => out.includes('bot polling started'), PROCESS_WAIT_MS);
			emulator.kill('SIGKILL'); // gone first, as when a terminal's Ctrl-C reached it before the worker
			await emulator.finished;
			const signalledAt = Date.now();
			worker.kill('SIGTERM');
			const result = await within(worker.finished, 30_000);
			const tookMs = Date.now() - signalledAt;
			const { stdout, stderr } = worker.output();
			if (result === 'late') throw new Error(`still running 30 s after SIGTERM:\n${stdout}`);
			expect(tookMs, stdout).toBeLessThan(5_000);
			expect(result.code, stdout + stderr).toBe(0);
			expect(stdout).toContain('"msg":"worker stopped"');
			expect(errorLines(stdout + stderr)).toEqual([]);
		} finally {
			emulator.kill('SIGKILL');
			worker.kill('SIGKILL');
		}
	}, 90_000);
});
