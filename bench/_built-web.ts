import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The built web server (build/index.js, what production runs) on a random port and a data
 * directory of its own, for benchmarks that measure through it. Exits with a hint when the build
 * is missing.
 */
export interface BuiltWeb {
	web: ChildProcess;
	base: string;
	dbPath: string;
	/** Resolves once /health answers. */
	ready(): Promise<void>;
	stop(): void;
}

export function startBuiltWeb(name: string, portFrom: number, extraEnv: Record<string, string> = {}): BuiltWeb {
	const root = path.resolve(import.meta.dirname, '..');
	if (!existsSync(path.join(root, 'build', 'index.js'))) {
		console.error('build/ is missing: run `npx vite build` first');
		process.exit(1);
	}
	const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
	const port = portFrom + Math.floor(Math.random() * 200);
	const base = `http://127.0.0.1:${port}`;
	const dbPath = path.join(dir, 'app.db');
	const env = {
		...process.env,
		NODE_ENV: 'test',
		LOG_LEVEL: 'warn',
		DB_PATH: dbPath,
		DATA_DIR: dir,
		PORT: String(port),
		HOST: '127.0.0.1',
		ORIGIN: base,
		PUBLIC_BASE_URL: base,
		TELEGRAM_BOT_TOKEN: '',
		TELEGRAM_API_ROOT: '',
		...extraEnv
	};
	const web = spawn(process.execPath, ['build/index.js'], { cwd: root, env, stdio: 'ignore' });
	return {
		web,
		base,
		dbPath,
		ready: async () => {
			for (let i = 0; i < 200; i++) {
				if (
					await fetch(`${base}/health`).then(
						(r) => r.ok,
						() => false
					)
				)
					return;
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			throw new Error('web server did not start');
		},
		stop: () => {
			web.kill('SIGTERM');
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
