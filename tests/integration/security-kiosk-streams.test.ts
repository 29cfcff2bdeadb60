import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { rememberBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { openSse, type SseStream } from '../helpers/sse-reader.ts';

/**
 * Kiosk side of the stream limits: the kiosk's event streams (SSE on the built server) have the
 * same limits as the console's — a few per kiosk, the oldest closed for a new one — and end
 * within seconds once the kiosk's key is revoked.
 */
const ENDS_WITHIN_MS = 10_000; // the 5 s recheck plus room for a loaded test machine

describe('finding 3: kiosk event streams', () => {
	const builtWeb = useBuiltWeb('kiosk-streams-');

	async function start(): Promise<{ web: BuiltWeb; db: Db; cookie: string; kioskId: number }> {
		const { web, db } = await builtWeb.start();
		const { key, kiosk } = await createKiosk(db, systemClock, 'hall-a');
		return { web, db, cookie: `kiosk_key=${key}`, kioskId: kiosk.id };
	}

	async function follow(web: BuiltWeb, cookie: string, path: string, first: string): Promise<SseStream> {
		const stream = await openSse(`${web.base}${path}`, { cookie });
		builtWeb.later(() => stream.close());
		expect(stream.status).toBe(200);
		await stream.waitFor((event) => event.event === first);
		return stream;
	}

	it('finding 3: a revoked kiosk key ends its event streams within seconds', async () => {
		const { web, db, cookie, kioskId } = await start();
		await rememberBotUsername(db, systemClock, 'hall_kiosk_bot');
		const started = await fetch(`${web.base}/api/kiosk/sessions`, {
			method: 'POST',
			headers: { cookie, origin: web.base, 'content-type': 'application/json' },
			body: '{}'
		});
		expect(started.status).toBe(201);
		const { token } = (await started.json()) as { token: string };
		const kioskEvents = await follow(web, cookie, '/api/kiosk/events', 'kiosk');
		const sessionEvents = await follow(web, cookie, `/api/kiosk/sessions/${token}/events`, 'session');

		const revokedAt = Date.now();
		await db.$executeRawUnsafe('UPDATE kiosks SET revoked_at = ? WHERE id = ?', new Date().toISOString(), kioskId);
		for (const stream of [kioskEvents, sessionEvents]) {
			const event = await stream.waitFor((e) => e.event === 'unauthorised', ENDS_WITHIN_MS + 2_000);
			expect(event.at - revokedAt).toBeLessThan(ENDS_WITHIN_MS);
			expect(await stream.ended).toBeLessThan(revokedAt + ENDS_WITHIN_MS + 1_000);
		}
		const again = await fetch(`${web.base}/api/kiosk/events`, { headers: { cookie } });
		expect(again.status).toBe(401);
	}, 60_000);

	it('finding 3: one kiosk holds at most 4 event streams; the oldest is closed for a new one', async () => {
		const { web, db, cookie } = await start();
		const other = await createKiosk(db, systemClock, 'hall-b');
		const streams: SseStream[] = [];
		for (let i = 0; i < 4; i++) streams.push(await follow(web, cookie, '/api/kiosk/events', 'kiosk'));
		const othersStream = await follow(web, `kiosk_key=${other.key}`, '/api/kiosk/events', 'kiosk');

		const newest = await follow(web, cookie, '/api/kiosk/events', 'kiosk');
		await streams[0]!.waitFor((e) => e.event === 'closed', 5_000);
		await streams[0]!.ended;
		for (const stream of [...streams.slice(1), newest, othersStream])
			expect(stream.events.map((e) => e.event)).not.toContain('closed');
	}, 60_000);
});
