import { describe, expect, it } from 'vitest';
import { readMaintenance, startMaintenance } from '../../src/lib/server/settings/maintenance.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { callTrpc, signIn, useBuiltWeb } from '../helpers/built-web.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * Against the built web server: what anyone on the network can read
 * (/health, /start) and the cross-origin guard in front of every /api route.
 */
describe('public endpoints', () => {
	const { start } = useBuiltWeb('public-endpoints-');

	it('finding 7: public /health answers status only; the console Health page has the details', async () => {
		const { web, db } = await start();
		const health = async () => {
			const response = await fetch(`${web.base}/health`);
			return { status: response.status, text: await response.text() };
		};
		expect(await health()).toEqual({
			status: 200,
			text: JSON.stringify({ status: 'degraded', worker: { alive: false }, demo: true })
		});

		await startMaintenance(
			db,
			systemClock,
			'auto',
			'image provider billing: 429 RESOURCE_EXHAUSTED project 123456 billing account closed'
		);
		expect(await health()).toEqual({
			status: 200,
			text: JSON.stringify({ status: 'paused', worker: { alive: false }, demo: true })
		});
		const typed = await fetch(`${web.base}/api/trpc/system.health`).then((r) => r.json());
		expect(typed).toEqual({ result: { data: { status: 'paused', worker: { alive: false } } } });

		await insertOperator(db, systemClock, 'olga', 'viewer');
		const cookie = await signIn(web, 'olga', TEST_PASSWORD);
		const details = await callTrpc(web, cookie, 'query', 'health.read');
		expect(details.body.result?.data).toMatchObject({
			service: {
				status: 'paused',
				db: { reachable: true },
				maintenance: { source: 'auto', reason: expect.stringContaining('RESOURCE_EXHAUSTED') },
				worker: { alive: false, heartbeatAgeSeconds: null },
				provider: 'offline'
			},
			versions: { app: expect.any(String) }
		});
	}, 60_000);

	it('finding 7: the developer start page is off in production', async () => {
		const dev = await start();
		expect((await fetch(`${dev.web.base}/start`)).status).toBe(200);

		const { web } = await start({
			NODE_ENV: 'production',
			LEADS_IP_SALT: 'a-salt-for-the-production-test',
			TELEGRAM_BOT_TOKEN: '123456:production-test-token-not-real',
			TELEGRAM_API_ROOT: 'http://127.0.0.1:9'
		});
		const page = await fetch(`${web.base}/start`);
		expect(page.status).toBe(404);
		expect(await page.text()).not.toMatch(/worker|provider|version/i);
		expect((await fetch(`${web.base}/health`)).status).toBe(200);
	}, 60_000);

	it('finding 9: a cross-origin mutation through an encoded /api path is refused like a plain one', async () => {
		const { web, db } = await start();
		await insertOperator(db, systemClock, 'olga', 'owner');
		const cookie = await signIn(web, 'olga', TEST_PASSWORD);
		const post = (path: string, origin: string | null) =>
			fetch(`${web.base}${path}`, {
				method: 'POST',
				headers: { cookie, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
				body: JSON.stringify({ 0: { reason: 'cross-site' }, 1: { reason: 'cross-site' }, key: 'kk_not-a-key' })
			});

		// Paths SvelteKit decodes and routes to /api/…: every spelling gets the same 403.
		const routed = [
			'/%61pi/trpc/x,console.pause?batch=1',
			'/%61%70%69/trpc/x,console.pause?batch=1',
			'/a%70i/kiosk/key',
			'/%61pi/kiosk/key',
			'/%61pi/kiosk/staff-reset'
		];
		for (const path of routed) {
			for (const origin of ['https://evil.example', null])
				expect({ path, origin, status: (await post(path, origin)).status }).toEqual({ path, origin, status: 403 });
		}
		// Spellings SvelteKit does not route to /api (double encoding, another case) reach no API handler.
		for (const path of [
			'/%2561pi/trpc/x,console.pause?batch=1',
			'/API/trpc/x,console.pause?batch=1',
			'/%41PI/kiosk/key'
		]) {
			expect({ path, status: (await post(path, 'https://evil.example')).status }).toEqual({ path, status: 404 });
		}
		expect(await readMaintenance(db)).toBeNull();

		// Our own origin still passes the guard on an encoded path (the handler answers for itself).
		const own = await post('/%61pi/kiosk/key', web.base);
		expect(own.status).toBe(400);
		expect(await own.json()).toMatchObject({ error: 'no_kiosk_key' });
	}, 60_000);
});
