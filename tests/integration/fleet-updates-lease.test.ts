import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, SECOND } from '../../src/lib/server/time/clock.ts';
import {
	UPDATES_LEASE_TICK_MS,
	UPDATES_LEASE_TTL_MS,
	UpdatesLeaseKeeper,
	type UpdatesPoller
} from '../../src/worker/bot/updates-lease.ts';
import { useTestDb } from '../helpers/test-db.ts';

/** Stands for BotRunner: whether this worker is polling now, and how often it started. */
class RecordingPoller implements UpdatesPoller {
	polling = false;
	starts = 0;
	start(): void {
		this.polling = true;
		this.starts++;
	}
	async stop(): Promise<void> {
		this.polling = false;
	}
}

function worker(db: Db, clock: FakeClock, holder: string, sole = false) {
	const poller = new RecordingPoller();
	return { poller, keeper: new UpdatesLeaseKeeper({ db, clock, logger: silentLogger, poller, holder, sole }) };
}

describe('one consumer of Telegram updates: the updates lease', () => {
	const testDb = useTestDb('fleet-lease-');

	it('one of two workers polls; the other takes over only after the holder stopped renewing for the lease time', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const a = worker(db, clock, 'worker-a');
		const b = worker(db, clock, 'worker-b');
		await a.keeper.tick();
		await b.keeper.tick();
		expect([a.poller.polling, b.poller.polling]).toEqual([true, false]);

		// While a renews every tick, b never gets the lease.
		for (let tick = 0; tick < 5; tick++) {
			clock.advance(UPDATES_LEASE_TICK_MS);
			await a.keeper.tick();
			await b.keeper.tick();
			expect([a.poller.polling, b.poller.polling]).toEqual([true, false]);
		}

		// a hangs (no more ticks): just before its lease runs out b still waits, then b takes over.
		clock.advance(UPDATES_LEASE_TTL_MS - 1);
		await b.keeper.tick();
		expect(b.poller.polling).toBe(false);
		clock.advance(1);
		await b.keeper.tick();
		expect(b.poller.polling).toBe(true);
		expect(await db.leaderLease.findUnique({ where: { name: 'telegram-updates' } })).toMatchObject({
			holder: 'worker-b'
		});

		// a comes back: its renewal finds the lease taken, so it stops polling at once and stays off.
		await a.keeper.tick();
		expect(a.poller.polling).toBe(false);
		clock.advance(UPDATES_LEASE_TICK_MS);
		await b.keeper.tick();
		await a.keeper.tick();
		expect([a.poller.polling, b.poller.polling]).toEqual([false, true]);
	});

	it('a holder that could not renew before its lease ran out stops polling even if nobody took the lease yet', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const a = worker(db, clock, 'worker-a');
		await a.keeper.tick();
		clock.advance(UPDATES_LEASE_TTL_MS);
		await a.keeper.tick();
		expect(a.poller.polling).toBe(false);
		// Free again at the next tick, it takes the lease back and polls once more.
		await a.keeper.tick();
		expect([a.poller.polling, a.poller.starts]).toEqual([true, 2]);
	});

	it('a renewal the database refuses stops polling at once', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const a = worker(db, clock, 'worker-a');
		await a.keeper.tick();
		expect(a.poller.polling).toBe(true);
		// With the table renamed away the renewal fails as it would while the database is unreachable.
		await db.$executeRawUnsafe('ALTER TABLE leader_leases RENAME TO leader_leases_away');
		clock.advance(UPDATES_LEASE_TICK_MS);
		await a.keeper.tick();
		expect(a.poller.polling).toBe(false);
		await db.$executeRawUnsafe('ALTER TABLE leader_leases_away RENAME TO leader_leases');
		clock.advance(UPDATES_LEASE_TICK_MS);
		await a.keeper.tick();
		expect(a.poller.polling).toBe(true);
	});

	it('stopping gives the lease up, so the next worker polls at its next tick without waiting for expiry', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const a = worker(db, clock, 'worker-a');
		const b = worker(db, clock, 'worker-b');
		await a.keeper.tick();
		await a.keeper.stop();
		expect(a.poller.polling).toBe(false);
		await a.keeper.tick();
		expect(a.poller.starts).toBe(1);
		clock.advance(SECOND);
		await b.keeper.tick();
		expect(b.poller.polling).toBe(true);
	});

	it('the only worker on its database (SQLite) takes the lease at once, even one a killed predecessor left', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const killed = worker(db, clock, 'worker-killed');
		await killed.keeper.tick();
		clock.advance(SECOND);
		const next = worker(db, clock, 'worker-next', true);
		await next.keeper.tick();
		expect(next.poller.polling).toBe(true);
		expect(await db.leaderLease.findUnique({ where: { name: 'telegram-updates' } })).toMatchObject({
			holder: 'worker-next'
		});
	});
});
