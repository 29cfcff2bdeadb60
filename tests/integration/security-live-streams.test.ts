import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import type { Role } from '../../src/lib/server/auth/roles.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createOperatorSession } from '../../src/lib/server/auth/operator-session.ts';
import { LIVE_VIEW_LIMITS } from '../../src/lib/server/trpc/live-view.ts';
import { callTrpc, signIn, useBuiltWeb, type BuiltWeb } from '../helpers/built-web.ts';
import { openSse, type SseEvent, type SseStream } from '../helpers/sse-reader.ts';
import { insertOperator, TEST_PASSWORD } from './console-fixtures.ts';

/**
 * Console side of the stream limits: a live view (tRPC subscription over SSE on the built server)
 * checks its session on every push and every few seconds, and ends with an UNAUTHORIZED error
 * event the moment the session is gone — signed out, expired, the operator removed or their
 * role changed. The browser's httpSubscriptionLink does not retry that code.
 */
const ENDS_WITHIN_MS = 10_000; // the 5 s recheck plus room for a loaded test machine

const isData = (event: SseEvent) => event.event === 'message';
const errorCode = (event: SseEvent) => (JSON.parse(event.data) as { data?: { code?: string } }).data?.code;
const isError = (code: string) => (event: SseEvent) => event.event === 'serialized-error' && errorCode(event) === code;

describe('finding 3: console live streams end with their session', () => {
	const builtWeb = useBuiltWeb('live-streams-');

	async function start(): Promise<{
		web: BuiltWeb;
		db: Db;
		operator: (username: string, role: Role) => Promise<{ id: number; cookie: string }>;
	}> {
		const { web, db } = await builtWeb.start();
		const operator = async (username: string, role: Role) => {
			const { id } = await insertOperator(db, systemClock, username, role);
			return { id, cookie: await signIn(web, username, TEST_PASSWORD) };
		};
		return { web, db, operator };
	}

	async function watch(web: BuiltWeb, cookie: string, procedure: string, input?: unknown): Promise<SseStream> {
		const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
		const stream = await openSse(`${web.base}/api/trpc/${procedure}${query}`, { cookie });
		builtWeb.later(() => stream.close());
		await stream.waitFor(isData);
		return stream;
	}

	async function expectEndsUnauthorised(stream: SseStream, since: number): Promise<void> {
		const event = await stream.waitFor(isError('UNAUTHORIZED'), ENDS_WITHIN_MS + 2_000);
		expect(event.at - since).toBeLessThan(ENDS_WITHIN_MS);
		expect(await stream.ended).toBeLessThan(since + ENDS_WITHIN_MS + 1_000);
	}

	it('finding 3: a live stream ends within seconds after sign-out', async () => {
		const { web, operator } = await start();
		const olga = await operator('olga', 'owner');
		const live = await watch(web, olga.cookie, 'console.watchLive');
		const logs = await watch(web, olga.cookie, 'logs.watch', {});

		const signedOutAt = Date.now();
		const logout = await fetch(`${web.base}/console/logout`, {
			method: 'POST',
			headers: {
				cookie: olga.cookie,
				origin: web.base,
				accept: 'text/html',
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: '',
			redirect: 'manual'
		});
		expect(logout.status).toBe(303);

		await expectEndsUnauthorised(live, signedOutAt);
		await expectEndsUnauthorised(logs, signedOutAt);
		// Reconnecting with the old cookie is refused at once.
		const again = await openSse(`${web.base}/api/trpc/console.watchLive`, { cookie: olga.cookie });
		builtWeb.later(() => again.close());
		await again.waitFor(isError('UNAUTHORIZED'), 5_000);
	}, 60_000);

	it('finding 3: removing an operator ends their live streams', async () => {
		const { web, operator } = await start();
		const owner = await operator('olga', 'owner');
		const ivan = await operator('ivan', 'operator');
		const leads = await watch(web, ivan.cookie, 'leads.watch', {});
		const messages = await watch(web, ivan.cookie, 'messages.watchActivity', {});
		const ownersView = await watch(web, owner.cookie, 'operators.watch');

		const removedAt = Date.now();
		const removal = await callTrpc(web, owner.cookie, 'mutation', 'operators.remove', { operatorId: ivan.id });
		expect(removal.status).toBe(200);

		await expectEndsUnauthorised(leads, removedAt);
		await expectEndsUnauthorised(messages, removedAt);
		expect(ownersView.events.some(isError('UNAUTHORIZED'))).toBe(false);
	}, 60_000);

	it('finding 3: a role change (demotion) ends the live streams opened under the old role', async () => {
		const { web, db, operator } = await start();
		const ivan = await operator('ivan', 'operator');
		const guests = await watch(web, ivan.cookie, 'guests.watch', {});
		const demotedAt = Date.now();
		await db.$executeRawUnsafe(`UPDATE operators SET role = 'viewer' WHERE id = ?`, ivan.id);
		await expectEndsUnauthorised(guests, demotedAt);
	}, 60_000);

	it('finding 3: an expired session ends the live stream', async () => {
		const { web, db, operator } = await start();
		const ivan = await operator('ivan', 'operator');
		const spend = await watch(web, ivan.cookie, 'spend.watch', {});
		const expiredAt = Date.now();
		await db.$executeRawUnsafe(
			`UPDATE operator_sessions SET expires_at = ? WHERE operator_id = ?`,
			new Date(expiredAt - 1000).toISOString(),
			ivan.id
		);
		await expectEndsUnauthorised(spend, expiredAt);
	}, 60_000);

	it('finding 3: one operator holds at most 8 live streams; the oldest makes way for a new one', async () => {
		const { web, operator } = await start();
		const ivan = await operator('ivan', 'operator');
		const other = await operator('olga', 'operator');
		const streams: SseStream[] = [];
		for (let i = 0; i < LIVE_VIEW_LIMITS.perOwner; i++)
			streams.push(await watch(web, ivan.cookie, 'audit.watch', { limit: 10 + i }));
		const othersView = await watch(web, other.cookie, 'audit.watch', {});

		const newest = await watch(web, ivan.cookie, 'audit.watch', { limit: 99 });
		const evicted = await streams[0]!.waitFor(isError('TOO_MANY_REQUESTS'), 5_000);
		expect(JSON.parse(evicted.data)).toMatchObject({ message: expect.stringMatching(/too many live views/i) });
		await streams[0]!.ended;
		for (const stream of [...streams.slice(1), newest, othersView])
			expect(stream.events.filter((e) => e.event === 'serialized-error')).toEqual([]);
	}, 60_000);

	// Eight viewer accounts with 16 views each used to fill the process's 128 and lock the owner out.
	it('viewers filling every live-view place cannot lock the owner out, nor another operator', async () => {
		const { web, db } = await start();
		const { perOwner, total } = LIVE_VIEW_LIMITS;
		const session = async (username: string, role: Role) => {
			const { id } = await insertOperator(db, systemClock, username, role);
			return `console_session=${(await createOperatorSession(db, systemClock, id)).token}`;
		};
		const viewers = [];
		for (let i = 0; i < total / perOwner; i++) viewers.push(await session(`viewer${i}`, 'viewer'));
		const owner = await session('olga', 'owner');
		const latecomer = await session('ivan', 'operator');
		const held: SseStream[] = [];
		for (const cookie of viewers)
			for (let i = 0; i < perOwner; i++) held.push(await watch(web, cookie, 'audit.watch', { limit: 10 + i }));

		const ownersView = await watch(web, owner, 'console.watchLive');
		// The owner's view took the place of the oldest view of a biggest holder, which is told why.
		const displaced = await held[0]!.waitFor(isError('TOO_MANY_REQUESTS'), 5_000);
		expect(JSON.parse(displaced.data)).toMatchObject({
			message: expect.stringMatching(/to make room for another operator/)
		});
		// An operator with no view yet gets one too: fair shares, not first come.
		const latecomersView = await watch(web, latecomer, 'audit.watch', {});
		await held[perOwner]!.waitFor(isError('TOO_MANY_REQUESTS'), 5_000); // the next viewer's oldest
		const ended = held.filter((stream) => stream.events.some((e) => e.event === 'serialized-error'));
		expect(ended).toEqual([held[0], held[perOwner]]);
		for (const stream of [ownersView, latecomersView])
			expect(stream.events.filter((e) => e.event === 'serialized-error')).toEqual([]);
	}, 120_000);
});
