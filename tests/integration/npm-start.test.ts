import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_WEB_ENTRY, freePortPair } from '../helpers/built-web.ts';
import { within } from '../../src/lib/server/time/within.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

const [WEB_PORT, EMULATOR_PORT] = await freePortPair();

const errorLines = (text: string) => text.split('\n').filter((line) => /│ \d\d:\d\d:\d\d (ERROR|FATAL) /.test(line));

/**
 * `npm start` as a person runs it: scripts/run-all.ts (what scripts/run.sh execs after building)
 * with emulator, worker and web, on a first start (empty data dir). Its own process group, so the
 * test can do what a terminal's Ctrl-C does: SIGINT to every process of the group at once.
 */
describe.skipIf(!existsSync(BUILT_WEB_ENTRY))('npm start (scripts/run-all.ts)', () => {
	let dataDir: string;
	let runAll: ChildProcess;
	let out = '';
	let exited: Promise<number | null>;

	beforeAll(async () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'kiosk-npm-start-'));
		runAll = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-all.ts'], {
			cwd: PROJECT_ROOT,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				NODE_ENV: 'test',
				LOG_LEVEL: 'info',
				PORT: String(WEB_PORT),
				EMULATOR_PORT: String(EMULATOR_PORT),
				PUBLIC_BASE_URL: `http://127.0.0.1:${WEB_PORT}`,
				DATA_DIR: dataDir,
				DB_PATH: path.join(dataDir, 'app.db'),
				TELEGRAM_BOT_TOKEN: '',
				TELEGRAM_API_ROOT: ''
			}
		});
		runAll.stdout!.on('data', (chunk) => (out += chunk));
		runAll.stderr!.on('data', (chunk) => (out += chunk));
		exited = new Promise((resolve) => runAll.on('exit', (code) => resolve(code)));
		const deadline = Date.now() + 90_000;
		const ready = () => out.includes('bot polling started') && out.includes('/console/setup?token=');
		while (!ready() && Date.now() < deadline && runAll.exitCode === null)
			await new Promise((resolve) => setTimeout(resolve, 100));
	}, 120_000);

	afterAll(() => {
		try {
			process.kill(-runAll.pid!, 'SIGKILL');
		} catch {
			// already gone
		}
		rmSync(dataDir, { recursive: true, force: true });
	});

	it('finding 8: a first start shows the kiosk key and the setup link on its terminal, but no process logs them', () => {
		const lines = out.split('\n');
		const keyLine = lines.find((line) => /kiosk key: \S+/.test(line));
		const linkLine = lines.find((line) => line.includes('/console/setup?token='));
		expect(keyLine, out).toBeDefined();
		expect(linkLine, out).toBeDefined();
		const key = /kiosk key: (\S+)/.exec(keyLine!)![1]!;
		const token = /token=([^\s&]+)/.exec(linkLine!)![1]!;
		// Lines of the processes carry their name as a prefix ("web     │ …"): none has a secret.
		const processLines = lines.filter((line) => /^(web|worker|telegram)\s*│/.test(line));
		expect(processLines.length).toBeGreaterThan(0);
		expect(processLines.filter((line) => line.includes(key) || line.includes(token))).toEqual([]);
	});

	it("shows the processes' log lines in a human form: time, level and message, no raw JSON", () => {
		const processLines = out.split('\n').filter((line) => /^(web|worker|telegram)\s*│/.test(line));
		expect(
			processLines.filter((line) => /│ \{/.test(line)),
			out
		).toEqual([]);
		expect(
			processLines.some((line) => /^worker\s*│ \d\d:\d\d:\d\d INFO {2}worker started\b/.test(line)),
			out
		).toBe(true);
	});

	it('finding 14: Ctrl-C stops the worker before the emulator, within seconds and without an error line', async () => {
		expect(out).toContain('bot polling started');
		const signalledAt = Date.now();
		process.kill(-runAll.pid!, 'SIGINT');
		const code = await within(exited, 40_000);
		const tookMs = Date.now() - signalledAt;
		expect(code, `still running 40 s after Ctrl-C:\n${out}`).not.toBe('late');
		const lines = out.split('\n');
		const workerStopped = lines.findIndex(
			(line) => line.startsWith('worker') && / INFO {2}worker stopped\b/.test(line)
		);
		const emulatorStopping = lines.findIndex(
			(line) => line.startsWith('telegram') && line.includes('Telegram emulator: SIG')
		);
		expect(workerStopped, out).toBeGreaterThan(-1);
		expect(emulatorStopping, out).toBeGreaterThan(workerStopped);
		expect(lines[emulatorStopping]).toContain('SIGTERM, stopping');
		expect(errorLines(out)).toEqual([]);
		expect(tookMs, out).toBeLessThan(10_000);
		expect(code).toBe(0);
	}, 60_000);
});
