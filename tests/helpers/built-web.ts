import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { ADAPTER_BODY_SIZE_LIMIT } from '../../src/lib/server/web/body-limit.ts';
import { PROJECT_ROOT } from './node-process.ts';
import { createTestDb } from './test-db.ts';

/**
 * The built web server (build/index.js, as `npm start` and systemd run it) on a data dir of its own,
 * for tests that hold the product to a promise over HTTP. Needs `npx vite build` first.
 *
 * The client address comes from X-Forwarded-For (as behind Caddy in production), so a test can speak
 * from many addresses. Ports: any free one, or the first free one of TEST_PORT_RANGE ("4243-4249")
 * when the machine hands out port ranges per person.
 */
export interface BuiltWeb {
	baseUrl: string;
	origin: string;
	pid: number;
	dbPath: string;
	/** stdout and stderr so far. */
	output(): string;
	request(pathname: string, init?: WebRequestInit): Promise<Response>;
	postForm(pathname: string, fields: Record<string, string>, init?: WebRequestInit): Promise<Response>;
	postJson(pathname: string, body: unknown, init?: WebRequestInit): Promise<Response>;
	/** Resident memory of the web process (VmRSS), in bytes. */
	rssBytes(): number;
	withDb<T>(run: (db: Database.Database) => T): T;
	stop(): Promise<void>;
}

export interface WebRequestInit extends RequestInit {
	/** The client address the request claims (X-Forwarded-For). */
	ip?: string;
	cookie?: string;
}

export interface BuiltWebOptions {
	/** Rows the test needs before the server starts (operators, kiosks). */
	seed?: (db: Db) => Promise<void>;
	env?: Record<string, string>;
	/** Serve as https://localhost:<port> (the origin SvelteKit sees; the socket stays plain http). */
	https?: boolean;
}

export const DEFAULT_TEST_IP = '192.0.2.1';

/** Starts a server per call; every one is stopped after the test. */
export function useBuiltWeb(dir: () => string): (options?: BuiltWebOptions) => Promise<BuiltWeb> {
	const running: BuiltWeb[] = [];
	afterEach(async () => {
		await Promise.all(running.splice(0).map((web) => web.stop()));
	});
	return async (options = {}) => {
		const web = await startBuiltWeb(dir(), options);
		running.push(web);
		return web;
	};
}

export async function startBuiltWeb(dataDir: string, options: BuiltWebOptions = {}): Promise<BuiltWeb> {
	const entry = path.join(PROJECT_ROOT, 'build', 'index.js');
	if (!existsSync(entry)) throw new Error('build/ is missing: run `npx vite build` before this test');
	const { db, dbPath } = await createTestDb(dataDir);
	try {
		await options.seed?.(db);
	} finally {
		await db.$disconnect();
	}
	const port = await findFreePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const origin = options.https ? `https://localhost:${port}` : baseUrl;
	const web = spawnWeb(entry, { DATA_DIR: dataDir, DB_PATH: dbPath, PORT: String(port), ORIGIN: origin, PUBLIC_BASE_URL: origin, ...options.env });
	await waitUntilAnswering(baseUrl, web.child, web.output);
	return { baseUrl, origin, pid: web.child.pid!, dbPath, output: web.output, ...clientFor(baseUrl, origin), rssBytes: () => readRssBytes(web.child.pid!), withDb: (run) => withSqlite(dbPath, run), stop: web.stop };
}

/** build/index.js as npm start runs it: our body limit, the client address from X-Forwarded-For, no Telegram. */
function spawnWeb(entry: string, env: Record<string, string>): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
	const child = spawn(process.execPath, [entry], {
		cwd: PROJECT_ROOT,
		env: {
			...process.env,
			NODE_ENV: 'test',
			LOG_LEVEL: 'info',
			HOST: '127.0.0.1',
			BODY_SIZE_LIMIT: ADAPTER_BODY_SIZE_LIMIT,
			ADDRESS_HEADER: 'X-Forwarded-For',
			XFF_DEPTH: '1',
			TELEGRAM_BOT_TOKEN: '',
			TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
			...env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout!.on('data', (chunk) => (output += chunk));
	child.stderr!.on('data', (chunk) => (output += chunk));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		child.kill('SIGTERM');
		const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
		await exited;
		clearTimeout(killer);
	};
	return { child, output: () => output, stop };
}

function clientFor(baseUrl: string, origin: string): Pick<BuiltWeb, 'request' | 'postForm' | 'postJson'> {
	const request = (pathname: string, init: WebRequestInit = {}) => {
		const headers = new Headers(init.headers);
		headers.set('x-forwarded-for', init.ip ?? DEFAULT_TEST_IP);
		if (!headers.has('origin')) headers.set('origin', origin);
		if (init.cookie) headers.set('cookie', init.cookie);
		return fetch(`${baseUrl}${pathname}`, { redirect: 'manual', ...init, headers });
	};
	return {
		request,
		// As a browser without JavaScript posts a form: the answer is the page, with the action's status.
		postForm: (pathname, fields, init = {}) =>
			request(pathname, { ...init, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...init.headers }, body: new URLSearchParams(fields).toString() }),
		postJson: (pathname, body, init = {}) =>
			request(pathname, { ...init, method: 'POST', headers: { 'content-type': 'application/json', ...init.headers }, body: JSON.stringify(body) })
	};
}

function withSqlite<T>(dbPath: string, run: (db: Database.Database) => T): T {
	const sqlite = new Database(dbPath, { timeout: 5000 });
	try {
		return run(sqlite);
	} finally {
		sqlite.close();
	}
}

export function readRssBytes(pid: number): number {
	const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	if (!match) throw new Error(`no VmRSS for pid ${pid}`);
	return Number(match[1]) * 1024;
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookiesFrom(response: Response): string {
	return response.headers
		.getSetCookie()
		.map((line) => line.split(';')[0]!)
		.join('; ');
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`the web process exited (${child.exitCode}):\n${output()}`);
		try {
			await fetch(`${baseUrl}/health`);
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	child.kill('SIGKILL');
	throw new Error(`the web process did not answer within 30 s:\n${output()}`);
}

async function findFreePort(): Promise<number> {
	const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '');
	if (!range) return listenOn(0);
	for (let port = Number(range[1]); port <= Number(range[2]); port++) {
		try {
			return await listenOn(port);
		} catch {
			// taken: try the next one
		}
	}
	throw new Error(`no free port in TEST_PORT_RANGE=${process.env.TEST_PORT_RANGE}`);
}

function listenOn(port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
		});
	});
}
