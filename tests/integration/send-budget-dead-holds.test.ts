import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS, BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { releaseDeadHolds } from '../../src/lib/server/telegram/dead-holds.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import {
	HEARTBEAT_EVERY_MS,
	WORKER_STALE_AFTER_SECONDS,
	recordHeartbeat,
	registerWorker
} from '../../src/lib/server/workers/worker-registry.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * A place in the send budget names the worker that took it; a worker killed between its place and
 * the Bot API's answer never settles it, and its chat stayed held for answerTimeoutMs (35 s). Now
 * a place whose worker the registry knows dead is released at once (dead-holds.ts): a launch silent
 * past the registry's stale rule, or the earlier launch whose stale instance lock a start took over.
 * A live worker's place, and one whose holder has no registry row, are never released. The
 * registry's rule is time-based, so time is a FakeClock; on both engines (TEST_DB_ENGINE).
 */
describe('send-budget places of dead workers', () => {
	const openDb = useTestDb('dead-holds-');
	const GUEST = 7001n;
	const OTHER_GUEST = 7002n;
	const UNKNOWN_GUEST = 7003n;

	async function world() {
		const { db } = await openDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const register = (id: string, hostname = 'host-a', pid = 100) =>
			registerWorker(db, clock, { id, pid, hostname, version: 'test', slots: 1 });
		const release = (gone: { hostname: string; pid: number } | null = null) =>
			releaseDeadHolds({ db, clock, logger: silentLogger, budget: me, self: 'me' }, gone);
		const me = new BotBudget(db, clock, 'me');
		return { db, clock, register, release, me };
	}

	/** Moves the clock in heartbeat steps; `alive` workers beat at each. */
	async function passTime(db: Db, clock: FakeClock, ms: number, alive: string[]) {
		for (let left = ms; left > 0; left -= HEARTBEAT_EVERY_MS) {
			clock.advance(Math.min(left, HEARTBEAT_EVERY_MS));
			for (const id of alive) await recordHeartbeat(db, clock, id, 0);
		}
	}

	it('frees a silent worker’s chat once the registry calls it dead, well before the 35 s hold', async () => {
		const { db, clock, register, release, me } = await world();
		await register('me');
		await register('killed');
		await register('live');
		const start = clock.now().getTime();
		expect(await new BotBudget(db, clock, 'killed').take(GUEST, 'guest')).toBe(0);
		expect(await new BotBudget(db, clock, 'live').take(OTHER_GUEST, 'guest')).toBe(0);
		expect(await new BotBudget(db, clock, 'never-registered').take(UNKNOWN_GUEST, 'guest')).toBe(0);

		// Inside the stale rule the killed worker may still be alive: nothing is released.
		await passTime(db, clock, WORKER_STALE_AFTER_SECONDS * 1000, ['me', 'live']);
		expect(await release()).toBe(0);
		expect(await me.take(GUEST, 'guest')).toBeGreaterThan(0);

		// Past it, the killed worker's place goes; the live worker's and the unknown holder's stay.
		await passTime(db, clock, 1000, ['me', 'live']);
		expect(await release()).toBe(1);
		const releasedAt = clock.now().getTime();
		// As if its call were answered now: the chat's spacing counts from the release.
		expect(await me.take(GUEST, 'guest')).toBe(BOT_LIMITS.perChatMs);
		clock.advance(BOT_LIMITS.perChatMs);
		expect(await me.take(GUEST, 'guest')).toBe(0);
		expect(clock.now().getTime() - start).toBeLessThan(BOT_LIMITS.answerTimeoutMs);
		expect(releasedAt - start).toBe((WORKER_STALE_AFTER_SECONDS + 1) * 1000);
		expect(await me.take(OTHER_GUEST, 'guest')).toBeGreaterThan(0);
		expect(await me.take(UNKNOWN_GUEST, 'guest')).toBeGreaterThan(0);
		expect(await release()).toBe(0);
	});

	it('at a start, frees the places of the earlier launch whose stale lock it took over, at once', async () => {
		const { db, clock, register, release, me } = await world();
		await register('me', 'host-a', 200);
		await register('killed-here', 'host-a', 4242);
		await register('same-pid-elsewhere', 'host-b', 4242);
		const killed = new BotBudget(db, clock, 'killed-here');
		expect(await killed.take(GUEST, 'guest')).toBe(0);
		expect(await new BotBudget(db, clock, 'same-pid-elsewhere').take(OTHER_GUEST, 'guest')).toBe(0);
		clock.advance(1000); // the killed worker beat a moment ago: the registry alone cannot tell

		expect(await release()).toBe(0);
		expect(await release({ hostname: 'host-a', pid: 4242 })).toBe(1);
		clock.advance(BOT_LIMITS.perChatMs);
		expect(await me.take(GUEST, 'guest')).toBe(0);
		// The same pid on another host is another process: its place stays.
		expect(await me.take(OTHER_GUEST, 'guest')).toBeGreaterThan(0);

		// The dead worker's settle, had it come, would leave the new place alone (conditional on its token).
		await killed.settle(GUEST);
		clock.advance(BOT_LIMITS.perChatMs);
		expect(await new BotBudget(db, clock, 'another').take(GUEST, 'guest')).toBeGreaterThan(0);
	});

	it('never releases this worker’s own places, even when its heartbeat is late', async () => {
		const { db, clock, register, release, me } = await world();
		await register('me');
		expect(await me.take(GUEST, 'guest')).toBe(0);
		clock.advance((WORKER_STALE_AFTER_SECONDS + 1) * 1000);
		expect(await release({ hostname: 'host-a', pid: 100 })).toBe(0);
		expect(await new BotBudget(db, clock, 'other').take(GUEST, 'guest')).toBeGreaterThan(0);
	});
});
