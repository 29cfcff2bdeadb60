import { describe, expect, it } from 'vitest';
import { apiTokenLimit } from '../../src/lib/server/api-tokens/token-rate-limit.ts';
import { KEY_ENTRY_LIMITS } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { START_LIMIT } from '../../src/lib/server/kiosk/kiosk-http.ts';
import { peekToken, takeToken } from '../../src/lib/server/rate-limits/rate-limit-buckets.repository.ts';
import type { RateLimit } from '../../src/lib/server/rate-limits/token-bucket.ts';
import { FakeClock, HOUR, SECOND } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';

/** The shared token buckets (rate_limit_buckets) on a real database; runs on PostgreSQL too (tests/postgres-core.txt). */
describe('rate limits in the database', () => {
	const freshDb = useTestDb('rate-limit-buckets-');
	async function setUp() {
		const made = await freshDb();
		return { ...made, clock: new FakeClock('2026-06-01T10:00:00.000Z') };
	}
	const allowed = (decisions: { allowed: boolean }[]) => decisions.map((decision) => decision.allowed);

	it('a kiosk gets 10 starts at once, then one every 6 s, and Retry-After says when the next one comes', async () => {
		const { db, clock } = await setUp();
		const take = () => takeToken(db, clock, START_LIMIT, '7');
		const burst = [];
		for (let i = 0; i < 11; i++) burst.push(await take());
		expect(allowed(burst)).toEqual([...Array<boolean>(10).fill(true), false]);
		expect(burst[10]).toEqual({ allowed: false, retryAfterSeconds: 6 });
		clock.advance(3 * SECOND);
		expect(await take()).toEqual({ allowed: false, retryAfterSeconds: 3 });
		clock.advance(3 * SECOND);
		expect(allowed([await take(), await take()])).toEqual([true, false]);
		// Another kiosk, and the same kiosk's uploads, have buckets of their own.
		expect(await takeToken(db, clock, START_LIMIT, '8')).toEqual({ allowed: true });
		expect(await takeToken(db, clock, { ...START_LIMIT, name: 'kiosk-upload' }, '7')).toEqual({ allowed: true });
	});

	it('an API token: a burst of its rate a minute, refilled at that rate, never past the burst', async () => {
		const { db, clock } = await setUp();
		const take = () => takeToken(db, clock, apiTokenLimit(3), '12');
		const decisions = [await take(), await take(), await take(), await take()];
		expect(decisions).toEqual([
			{ allowed: true },
			{ allowed: true },
			{ allowed: true },
			{ allowed: false, retryAfterSeconds: 20 }
		]);
		clock.advance(15 * SECOND);
		expect(await take()).toEqual({ allowed: false, retryAfterSeconds: 5 });
		clock.advance(5 * SECOND);
		expect(allowed([await take(), await take()])).toEqual([true, false]);
		clock.advance(HOUR);
		expect(allowed([await take(), await take(), await take(), await take()])).toEqual([true, true, true, false]);
	});

	it('peeking takes nothing and writes no row', async () => {
		const { db, clock } = await setUp();
		const limit = KEY_ENTRY_LIMITS.wrongKeysFromSource;
		expect(await peekToken(db, clock, limit, 'never-seen')).toEqual({ allowed: true });
		expect(await db.rateLimitBucket.count()).toBe(0);
		for (let i = 0; i < limit.capacity; i++) await takeToken(db, clock, limit, 'pair');
		expect(await peekToken(db, clock, limit, 'pair')).toEqual({ allowed: false, retryAfterSeconds: 30 });
		clock.advance(29 * SECOND);
		expect(await peekToken(db, clock, limit, 'pair')).toEqual({ allowed: false, retryAfterSeconds: 1 });
		clock.advance(SECOND);
		expect(await peekToken(db, clock, limit, 'pair')).toEqual({ allowed: true });
		expect(await peekToken(db, clock, limit, 'pair')).toEqual({ allowed: true });
		expect(allowed([await takeToken(db, clock, limit, 'pair'), await takeToken(db, clock, limit, 'pair')])).toEqual([
			true,
			false
		]);
	});

	it('a take that adds a bucket deletes that limit’s buckets full again, and nothing else', async () => {
		const { db, clock } = await setUp();
		const slow: RateLimit = { name: 'slow-limit', capacity: 2, refillPerSecond: 1 / 300 }; // full 600 s after empty
		await takeToken(db, clock, START_LIMIT, 'old'); // full 60 s after empty
		await takeToken(db, clock, slow, 'old');
		clock.advance(30 * SECOND);
		await takeToken(db, clock, START_LIMIT, 'recent');
		clock.advance(31 * SECOND);
		await takeToken(db, clock, START_LIMIT, 'recent'); // an existing bucket: no pruning
		expect(await keys(db)).toEqual(['kiosk-start:old', 'kiosk-start:recent', 'slow-limit:old']);
		await takeToken(db, clock, START_LIMIT, 'new');
		// 61 s untouched: full again, so gone; the slow limit's bucket is not full yet and stays.
		expect(await keys(db)).toEqual(['kiosk-start:new', 'kiosk-start:recent', 'slow-limit:old']);
		expect(await takeToken(db, clock, START_LIMIT, 'old')).toEqual({ allowed: true });
	});

	it('takes at once (on PostgreSQL over several connections) never hand out more than the capacity', async () => {
		const { db, clock } = await setUp();
		const limit: RateLimit = { name: 'kiosk-start', capacity: 10, refillPerSecond: 1 / 3600 };
		const decisions = await Promise.all(Array.from({ length: 24 }, () => takeToken(db, clock, limit, 'busy-kiosk')));
		expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
		expect((await db.rateLimitBucket.findUniqueOrThrow({ where: { key: 'kiosk-start:busy-kiosk' } })).tokens).toBe(0);
	});

	it('refuses a client address as a bucket key: addresses are only ever stored hashed', async () => {
		const { db, clock } = await setUp();
		await expect(takeToken(db, clock, KEY_ENTRY_LIMITS.wrongKeysFromSource, '203.0.113.9')).rejects.toThrow(
			/must not hold a client address/
		);
		await expect(peekToken(db, clock, KEY_ENTRY_LIMITS.wrongKeysFromSource, '2001:db8::1')).rejects.toThrow(
			/must not hold a client address/
		);
		expect(await db.rateLimitBucket.count()).toBe(0);
	});
});

async function keys(db: Awaited<ReturnType<ReturnType<typeof useTestDb>>>['db']): Promise<string[]> {
	return (await db.rateLimitBucket.findMany({ orderBy: { key: 'asc' } })).map((row) => row.key);
}
