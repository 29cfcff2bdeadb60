import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { within } from '../../src/lib/server/time/within.ts';
import { ADAPTER_BODY_SIZE_LIMIT } from '../../src/lib/server/web/body-limit.ts';
import { PROJECT_ROOT, type Finished } from './node-process.ts';
import { useTempDir } from './temp-dir.ts';

export const BUILT_WEB_ENTRY = path.join(PROJECT_ROOT, 'build', 'index.js');

/**
 * The built web server (build/index.js, as `npm start` and systemd run it: with the same outer body
 * limit) on a free port with a data directory of its own. Tests talk to it over HTTP only;
 * `npx vite build` must have run.
 */
export interface BuiltWeb {
	/** Where the socket listens (always plain http). */
	base: string;
	/** The site's origin as the server sees it: `base`, or https://localhost:<port> with `https`. */
	origin: string;
	pid: number;
	dataDir: string;
	dbPath: string;
	/** Everything the process wrote to stdout and stderr so far (pino JSON lines). */
	output: () => string;
	/** SIGTERM (the web process flushes its log table on the way out), SIGKILL after 5 s. */
	stop: () => Promise<void>;
	/** How the process ended: `{ code: 0, signal: null }` when it left on its own after SIGTERM. */
	exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface BuiltWebOptions {
	/** Serve as https://localhost:<port>: the origin SvelteKit and the cookies see; the socket stays plain http. */
	https?: boolean;
}

/**
 * Env for a server that takes the client address from X-Forwarded-For, as behind Caddy in
 * production, so a test can speak from many addresses (`ip` on `requestWeb`). Every request must
 * then carry the header: `requestWeb` and the helpers built on it always send one.
 */
export const CLIENT_ADDRESS_FROM_HEADER = { ADDRESS_HEADER: 'X-Forwarded-For', XFF_DEPTH: '1' } as const;
export const DEFAULT_TEST_IP = '192.0.2.1';

/** Any free port, or the first free one of TEST_PORT_RANGE ("4403-4409") where ports are shared out per person. */
export async function freePort(): Promise<number> {
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
	return holdPort(port).then((held) => held.release());
}

/** Listens on `port` (0: any) until released; release() resolves with the port once it is free again. */
function holdPort(port: number): Promise<{ port: number; release: () => Promise<number> }> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			if (typeof address !== 'object' || !address) return reject(new Error('no port'));
			resolve({ port: address.port, release: () => new Promise((done) => server.close(() => done(address.port))) });
		});
	});
}

/**
 * Two different free ports, for a test that starts two servers itself (a web and its emulator, or
 * one that must stay closed). Never fixed numbers: test files run side by side, and other people's
 * runs share the machine. Each port is held until both are found, so a TEST_PORT_RANGE cannot give
 * one twice.
 */
export async function freePortPair(): Promise<[number, number]> {
	const [first, second] = await freePorts(2);
	return [first!, second!];
}

async function freePorts(count: number): Promise<number[]> {
	const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '');
	const held: { port: number; release: () => Promise<number> }[] = [];
	try {
		if (!range) for (let n = 0; n < count; n++) held.push(await holdPort(0));
		else
			for (let port = Number(range[1]); port <= Number(range[2]) && held.length < count; port++) {
				try {
					held.push(await holdPort(port));
				} catch {
					// taken: try the next one
				}
			}
		if (held.length < count)
			throw new Error(`fewer than ${count} free ports in TEST_PORT_RANGE=${process.env.TEST_PORT_RANGE}`);
	} finally {
		await Promise.all(held.map((port) => port.release()));
	}
	return held.map((port) => port.port);
}

export async function startBuiltWeb(
	dataDir: string,
	env: NodeJS.ProcessEnv = {},
	options: BuiltWebOptions = {}
): Promise<BuiltWeb> {
	if (!existsSync(BUILT_WEB_ENTRY)) throw new Error('build/ is missing: run `npx vite build` first');
	const port = await freePort();
	const base = `http://127.0.0.1:${port}`;
	const origin = options.https ? `https://localhost:${port}` : base;
	const dbPath = path.join(dataDir, 'app.db');
	const child = spawn(process.execPath, [BUILT_WEB_ENTRY], {
		cwd: PROJECT_ROOT,
		env: {
			...process.env,
			NODE_ENV: 'test',
			LOG_LEVEL: 'info',
			DATA_DIR: dataDir,
			DB_PATH: dbPath,
			PORT: String(port),
			HOST: '127.0.0.1',
			ORIGIN: origin,
			PUBLIC_BASE_URL: origin,
			BODY_SIZE_LIMIT: ADAPTER_BODY_SIZE_LIMIT,
			TELEGRAM_BOT_TOKEN: '',
			TELEGRAM_API_ROOT: '',
			...env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal }))
	);
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		child.kill('SIGTERM');
		const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
		await exit;
		clearTimeout(killer);
	};
	for (let i = 0; i < 300; i++) {
		if (child.exitCode !== null) throw new Error(`the web server exited (${child.exitCode}):\n${output}`);
		if (
			await fetch(`${base}/health`).then(
				() => true,
				() => false
			)
		)
			return { base, origin, pid: child.pid!, dataDir, dbPath, output: () => output, stop, exit };
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	await stop();
	throw new Error(`the web server did not answer:\n${output}`);
}

/**
 * For a test file: `start()` gives a built web server on a fresh data dir and a Prisma client on
 * its database; `later()` adds a clean-up step. After each test everything stops, newest first.
 */
export function useBuiltWeb(prefix: string): {
	start: (env?: NodeJS.ProcessEnv, options?: BuiltWebOptions) => Promise<{ web: BuiltWeb; db: Db }>;
	later: (step: () => Promise<void> | void) => void;
} {
	const tempDir = useTempDir(prefix);
	const steps: (() => Promise<void> | void)[] = [];
	afterEach(async () => {
		for (const step of steps.splice(0).reverse()) await step();
	});
	const later = (step: () => Promise<void> | void) => void steps.push(step);
	const start = async (env: NodeJS.ProcessEnv = {}, options: BuiltWebOptions = {}) => {
		const web = await startBuiltWeb(tempDir(), env, options);
		later(() => web.stop());
		const db = openDatabase(web.dbPath);
		later(() => db.$disconnect());
		return { web, db };
	};
	return { start, later };
}

export interface WebRequestInit extends RequestInit {
	/** The client address the request claims (X-Forwarded-For; see CLIENT_ADDRESS_FROM_HEADER). */
	ip?: string;
	cookie?: string;
}

/** One request as a browser on the site sends it: our Origin, a client address, redirects not followed. */
export function requestWeb(web: BuiltWeb, pathname: string, init: WebRequestInit = {}): Promise<Response> {
	const { ip, cookie, ...rest } = init;
	const headers = new Headers(rest.headers);
	headers.set('x-forwarded-for', ip ?? DEFAULT_TEST_IP);
	if (!headers.has('origin')) headers.set('origin', web.origin);
	if (cookie) headers.set('cookie', cookie);
	return fetch(`${web.base}${pathname}`, { redirect: 'manual', ...rest, headers });
}

/** As a browser without JavaScript posts a form: the answer is the page, with the action's status. */
export function postForm(
	web: BuiltWeb,
	pathname: string,
	fields: Record<string, string>,
	init: WebRequestInit = {}
): Promise<Response> {
	const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...init.headers };
	return requestWeb(web, pathname, { ...init, method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

export function postJson(web: BuiltWeb, pathname: string, body: unknown, init: WebRequestInit = {}): Promise<Response> {
	return requestWeb(web, pathname, {
		...init,
		method: 'POST',
		headers: { 'content-type': 'application/json', ...init.headers },
		body: JSON.stringify(body)
	});
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookiesFrom(response: Response): string {
	return response.headers
		.getSetCookie()
		.map((line) => line.split(';')[0]!)
		.join('; ');
}

/** Resident memory of a process (VmRSS), in bytes. */
export function readRssBytes(pid: number): number {
	const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	if (!match) throw new Error(`no VmRSS for pid ${pid}`);
	return Number(match[1]) * 1024;
}

/** Signs in through the real form (POST /console/login) and returns the Cookie header to send. */
export async function signIn(web: BuiltWeb, username: string, password: string): Promise<string> {
	const response = await postForm(web, '/console/login', { username, password });
	const cookie = response.headers.getSetCookie().find((line) => !/max-age=0/i.test(line));
	if (response.status !== 303 || !cookie)
		throw new Error(`sign-in as ${username} failed: ${response.status} ${await response.text()}`);
	return cookie.split(';')[0]!;
}

/** A tRPC call over plain HTTP, as the console's httpLink sends it (no batching). */
export async function callTrpc(
	web: BuiltWeb,
	cookie: string,
	kind: 'query' | 'mutation',
	procedure: string,
	input?: unknown
): Promise<{ status: number; body: TrpcBody }> {
	const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
	const response =
		kind === 'query'
			? await requestWeb(web, `/api/trpc/${procedure}${query}`, { cookie })
			: await postJson(web, `/api/trpc/${procedure}`, input ?? null, { cookie });
	return { status: response.status, body: (await response.json()) as TrpcBody };
}

export interface TrpcBody {
	result?: { data: unknown };
	error?: {
		message: string;
		code: number;
		data: {
			code: string;
			httpStatus: number;
			requestId?: string;
			zodError?: { fieldErrors: Record<string, string[]> } | null;
		};
	};
}

export type SpawnedWeb = ReturnType<typeof spawnBuiltWeb>;

/**
 * The built web server as a bare child process on a port of the test's choosing, for tests about
 * the process itself (refusing to start, locks, what it prints): the caller waits and stops it.
 */
export function spawnBuiltWeb(options: { port: number; dataDir: string; env?: NodeJS.ProcessEnv }) {
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
export async function waitForHealth(web: SpawnedWeb, timeoutMs = 30_000): Promise<Response> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (web.exitCode !== null)
			throw new Error(`web process exited (${web.exitCode}):\n${web.output().stdout}${web.output().stderr}`);
		const answer = await fetch(`${web.base}/health`).catch(() => null);
		if (answer) return answer;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`web process did not answer /health:\n${web.output().stdout}${web.output().stderr}`);
}

/** The process's result once it exits, or — killed after `timeoutMs` — what it printed until then. */
export async function exitOrKill(
	child: { finished: Promise<Finished>; kill(signal?: NodeJS.Signals): boolean },
	timeoutMs: number
): Promise<Finished> {
	const result = await within(child.finished, timeoutMs);
	if (result !== 'late') return result;
	child.kill('SIGKILL');
	return child.finished;
}
