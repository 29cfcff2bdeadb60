import path from 'node:path';
import { startBuiltWeb, type BuiltWeb } from './_built-web.ts';
import { rssMb } from './_rss.ts';

/**
 * Idle resident memory of the web process (the built server, build/index.js, with
 * MALLOC_ARENA_MAX=2 as `npm start` and the systemd units run it): right after start, and after the
 * console's tRPC endpoint and the landing page have been loaded once (SvelteKit loads a route's
 * modules on its first request; the tRPC route is the one that used to pull grammY and
 * @google/genai in through the console's provider health).
 * Baseline, in the same run: the same server with both packages loaded into it at start
 * (`--import bench/_load-worker-packages.mjs`), which is what the web process carried before it
 * stopped importing them. Each figure is the median of ROUNDS starts.
 *   node --import tsx bench/web-idle-memory.ts      (needs `npx vite build` first)
 */
const ROUNDS = 5;
const SETTLE_MS = 3_000;
const PRELOAD = path.resolve(import.meta.dirname, '_load-worker-packages.mjs');

interface Reading {
	started: number;
	afterConsole: number;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The first request to a route loads its modules; the answer itself does not matter (unsigned in: 401). */
async function loadRoutes(server: BuiltWeb): Promise<void> {
	await fetch(`${server.base}/api/trpc/console.live`).then((r) => r.arrayBuffer());
	await fetch(`${server.base}/`).then((r) => r.arrayBuffer());
}

async function measureOnce(name: string, port: number, env: Record<string, string>): Promise<Reading> {
	const server = startBuiltWeb(name, port, { MALLOC_ARENA_MAX: '2', ...env });
	try {
		await server.ready();
		await settle();
		const started = rssMb(server.web.pid);
		await loadRoutes(server);
		await settle();
		return { started, afterConsole: rssMb(server.web.pid) };
	} finally {
		server.stop();
	}
}

async function measure(name: string, port: number, env: Record<string, string>): Promise<Reading> {
	const readings: Reading[] = [];
	for (let round = 0; round < ROUNDS; round++) readings.push(await measureOnce(name, port, env));
	return { started: median(readings.map((r) => r.started)), afterConsole: median(readings.map((r) => r.afterConsole)) };
}

const now = await measure('web-idle', 4810, {});
const before = await measure('web-idle-baseline', 5110, { NODE_OPTIONS: `--import=${PRELOAD}` });
const row = (label: string, r: Reading) =>
	console.log(
		`${label.padEnd(44)} ${r.started.toFixed(0).padStart(6)} MB ${r.afterConsole.toFixed(0).padStart(10)} MB`
	);
console.log(`web process idle RSS (median of ${ROUNDS} starts)      at start   after console`);
row('baseline: grammY + @google/genai loaded', before);
row('now: the web imports neither', now);
console.log(
	`ratio now / baseline: at start ${(now.started / before.started).toFixed(2)}x, after console ${(now.afterConsole / before.afterConsole).toFixed(2)}x; saved ${(before.afterConsole - now.afterConsole).toFixed(0)} MB`
);
