import { EventSource } from 'eventsource';
import { openDatabase } from '../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../src/lib/server/kiosk/kiosk-keys.ts';
import { startKioskSession } from '../src/lib/server/kiosk/kiosk-session.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';
import { startBuiltWeb } from './_built-web.ts';

/**
 * The kiosk's live status through the real built web server (build/index.js):
 *  1. a status read (GET /api/kiosk/sessions/<token>: cookie → kiosk, owner check, session,
 *     deadline, maintenance, queue) against a bare endpoint of the same server (GET /health);
 *  2. push latency: a session change written to the database → the page's EventSource sees it
 *     (target p95 ≤ 300 ms), against a fresh GET after the same change.
 *   node --import tsx bench/guest-live.ts      (needs `npx vite build` first)
 */
const READS = 300;
const PUSHES = 40;
const server = startBuiltWeb('guest-live', 4390);
const { base } = server;

const percentile = (xs: number[], p: number) =>
	[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const describe = (xs: number[]) =>
	`p50 ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms, mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} ms`;

async function timeRequests(url: string, cookie: string): Promise<number[]> {
	const samples: number[] = [];
	for (let i = 0; i < READS + 20; i++) {
		const start = performance.now();
		const response = await fetch(url, { headers: { cookie } });
		await response.arrayBuffer();
		if (!response.ok) throw new Error(`${url} answered ${response.status}`);
		if (i >= 20) samples.push(performance.now() - start);
	}
	return samples;
}

try {
	await server.ready();
	const db = openDatabase(server.dbPath);
	const { key, kiosk } = await createKiosk(db, systemClock, 'bench');
	await rememberBotUsername(db, systemClock, 'bench_kiosk_bot');
	const started = await startKioskSession(
		{
			db,
			clock: systemClock,
			timeouts: { qrTimeoutMs: 3_600_000, idleTimeoutMs: 3_600_000 },
			slots: 2,
			packsPerGuest: async () => 1
		},
		kiosk.id
	);
	if (started.kind !== 'started') throw new Error(started.kind);
	const cookie = `kiosk_key=${key}`;
	const statusUrl = `${base}/api/kiosk/sessions/${started.token}`;

	const full = await timeRequests(statusUrl, cookie);
	const bare = await timeRequests(`${base}/health`, cookie);
	console.log(`status read, full stack (${READS} sequential): ${describe(full)}`);
	console.log(`bare endpoint /health (${READS} sequential):   ${describe(bare)}`);
	console.log(`ratio (p50): ${(percentile(full, 0.5) / percentile(bare, 0.5)).toFixed(2)}× the bare endpoint`);

	const events = new EventSource(`${statusUrl}/events`, {
		fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } })
	});
	let waiting: { status: string; resolve: (at: number) => void } | null = null;
	events.addEventListener('session', (event) => {
		const view = JSON.parse(event.data) as { status: string };
		if (waiting && view.status === waiting.status) waiting.resolve(performance.now());
	});
	await new Promise((resolve) => events.addEventListener('session', resolve, { once: true }));
	const pushes: number[] = [];
	const fresh: number[] = [];
	for (let i = 0; i < PUSHES; i++) {
		const status = i % 2 === 0 ? 'linked' : 'consented';
		const seen = new Promise<number>((resolve) => (waiting = { status, resolve }));
		const start = performance.now();
		await db.session.update({
			where: { sessionToken: started.token },
			data: { status, updatedAt: new Date().toISOString() }
		});
		const got = (await (await fetch(statusUrl, { headers: { cookie } })).json()) as { status: string };
		if (got.status !== status) throw new Error('fresh read missed the change');
		fresh.push(performance.now() - start);
		pushes.push((await seen) - start);
		await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
	}
	events.close();
	await db.$disconnect();
	const p95 = percentile(pushes, 0.95);
	console.log(
		`push latency, DB change → EventSource (${PUSHES} changes): ${describe(pushes)} (target p95 ≤ 300 ms) ${p95 <= 300 ? '✓' : '✗ over target'}`
	);
	console.log(`baseline, DB change → fresh GET answered:          ${describe(fresh)}`);
	console.log(`ratio (p95): ${(p95 / percentile(fresh, 0.95)).toFixed(2)}× a fresh request`);
} finally {
	server.stop();
}
