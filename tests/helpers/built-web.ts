import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, type Finished } from './node-process.ts';

export const BUILT_WEB_ENTRY = path.join(PROJECT_ROOT, 'build', 'index.js');

export type BuiltWeb = ReturnType<typeof startBuiltWeb>;

/**
 * The built web server (`node build/index.js`, as systemd runs it) on a port and data dir of the
 * test's own. `npm test` builds before vitest runs; alone, run `npx vite build` first.
 */
export function startBuiltWeb(options: { port: number; dataDir: string; env?: NodeJS.ProcessEnv }) {
	if (!existsSync(BUILT_WEB_ENTRY)) throw new Error('build/index.js is missing: run `npx vite build` first');
	const base = `http://127.0.0.1:${options.port}`;
	const child = spawn(process.execPath, [BUILT_WEB_ENTRY], {
		cwd: PROJECT_ROOT,
		env: {
			...process.env,
			LOG_LEVEL: 'info',
			HOST: '127.0.0.1',
			PORT: String(options.port),
			ORIGIN: base,
			PUBLIC_BASE_URL: base,
			DATA_DIR: options.dataDir,
			DB_PATH: path.join(options.dataDir, 'app.db'),
			...options.env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk) => (stdout += chunk));
	child.stderr.on('data', (chunk) => (stderr += chunk));
	const output = (): Finished => ({ code: child.exitCode, signal: child.signalCode, stdout, stderr });
	const finished = new Promise<Finished>((resolve) => child.on('exit', () => resolve(output())));
	return Object.assign(child, { base, output, finished });
}

/** Resolves once GET /health answers (any status), or throws with what the process printed. */
export async function waitForHealth(web: BuiltWeb, timeoutMs = 30_000): Promise<Response> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (web.exitCode !== null) throw new Error(`web process exited (${web.exitCode}):\n${web.output().stdout}${web.output().stderr}`);
		const answer = await fetch(`${web.base}/health`).catch(() => null);
		if (answer) return answer;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`web process did not answer /health:\n${web.output().stdout}${web.output().stderr}`);
}

/** The process's result once it exits, or — killed after `timeoutMs` — what it printed until then. */
export async function exitOrKill(child: { finished: Promise<Finished>; kill(signal?: NodeJS.Signals): boolean }, timeoutMs: number): Promise<Finished> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
	const result = await Promise.race([child.finished, late.then(() => null)]);
	clearTimeout(timer);
	if (result) return result;
	child.kill('SIGKILL');
	return child.finished;
}
