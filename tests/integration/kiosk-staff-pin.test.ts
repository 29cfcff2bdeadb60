import { describe, expect, it } from 'vitest';
import {
	createKiosk,
	enterKioskKey,
	KEY_ENTRY_LIMITS,
	type KeyEntryLimits
} from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { STAFF_PIN_POLICY, tryStaffPin } from '../../src/lib/server/kiosk/staff-pin.ts';
import { FakeClock, MINUTE, SECOND } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { hashClientIp } from '../../src/lib/server/privacy/ip-hash.ts';

const PIN = '4321';
const SECRET = { kind: 'plain', pin: PIN } as const;

describe('the staff PIN lockout and key entry', () => {
	const freshDb = useTestDb('kiosk-staff-pin-');
	async function setUp() {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-06-01T10:00:00.000Z');
		const { kiosk, key } = await createKiosk(db, clock, 'kiosk-1');
		return { db, clock, kiosk, key };
	}

	it('locks a kiosk after three free wrong PINs, for 30 s, then 1 min, then 2 min; the right PIN clears it', async () => {
		const { db, clock, kiosk } = await setUp();
		const attempt = (pin: string) => tryStaffPin(db, clock, kiosk.id, SECRET, pin);
		for (let i = 0; i < STAFF_PIN_POLICY.freeFailures + 1; i++)
			expect(await attempt('0000')).toEqual({ ok: false, reason: 'wrong' });
		for (const wait of [30, 60, 120]) {
			expect(await attempt(PIN)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: wait });
			clock.advance(wait * SECOND);
			expect(await attempt('0000')).toEqual({ ok: false, reason: 'wrong' });
		}
		clock.advance(4 * MINUTE);
		expect(await attempt(PIN)).toEqual({ ok: true });
		expect(await db.loginThrottle.count()).toBe(0);
		// Another kiosk was never affected.
		const other = await createKiosk(db, clock, 'kiosk-2');
		expect(await tryStaffPin(db, clock, other.kiosk.id, SECRET, PIN)).toEqual({ ok: true });
	});

	it('counts parallel wrong PINs before comparing: of 20 at once, only the free ones and the first delayed one are compared', async () => {
		const { db, clock, kiosk } = await setUp();
		const results = await Promise.all(
			Array.from({ length: 20 }, () => tryStaffPin(db, clock, kiosk.id, SECRET, '0000'))
		);
		expect(results.filter((result) => !result.ok && result.reason === 'wrong')).toHaveLength(
			STAFF_PIN_POLICY.freeFailures + 1
		);
		expect(results.filter((result) => !result.ok && result.reason === 'locked')).toHaveLength(
			20 - STAFF_PIN_POLICY.freeFailures - 1
		);
	});

	it('key entry: never refuses a valid key; slows one client typing wrong keys, and wrong keys past the global cap', async () => {
		const { db, clock, key } = await setUp();
		const limits: KeyEntryLimits = {
			...KEY_ENTRY_LIMITS,
			wrongKeysEverywhere: { ...KEY_ENTRY_LIMITS.wrongKeysEverywhere, capacity: 10, refillPerSecond: 1 }
		};
		const kioskClient = 'client-hash-of-the-kiosk';
		const wrong = 'kk_wrong-key-typed-again-and-again';
		const repeated = [];
		for (let i = 0; i < 7; i++) repeated.push((await enterKioskKey(db, clock, wrong, kioskClient, limits)).kind);
		expect(repeated).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown', 'slow_down', 'slow_down']);
		expect(await enterKioskKey(db, clock, wrong, 'another-client', limits)).toEqual({ kind: 'unknown' });
		// The global cap on wrong keys is now used up (6 of 10 above, 4 more here)…
		for (let i = 0; i < 4; i++) await enterKioskKey(db, clock, `kk_junk-${i}-xxxxxxxxxxxxxxxx`, `flooder-${i}`, limits);
		expect(await enterKioskKey(db, clock, 'kk_one-more-junk-key-xxxxxxxx', 'flooder-x', limits)).toMatchObject({
			kind: 'slow_down'
		});
		// …and the real key, from the flooded address, still gets in, as often as it is typed.
		for (let i = 0; i < 10; i++)
			expect(await enterKioskKey(db, clock, key, kioskClient, limits)).toMatchObject({
				kind: 'accepted',
				kiosk: { name: 'kiosk-1' }
			});
		// 30 s later that client may try a wrong key once more, whichever key it is.
		clock.advance(30 * SECOND);
		expect(await enterKioskKey(db, clock, 'kk_another-wrong-key-xxxxxxxxxx', kioskClient, limits)).toEqual({
			kind: 'unknown'
		});
		expect(await enterKioskKey(db, clock, wrong, kioskClient, limits)).toMatchObject({
			kind: 'slow_down',
			retryAfterSeconds: 30
		});
	});

	// Each different wrong key used to open a bucket of its own (keyed by the key typed and the
	// client): one source could grow rate_limit_buckets by a row per request.
	it('key entry: 1000 different wrong keys from one source leave a constant number of bucket rows, keyed by the source’s hash', async () => {
		const { db, clock, key } = await setUp();
		const source = hashClientIp('203.0.113.77', 'test-salt-0123456789');
		const answers = new Set<string>();
		for (let i = 0; i < 1000; i++)
			answers.add((await enterKioskKey(db, clock, `kk_wrong-${i}-${'x'.repeat(20)}`, source)).kind);
		expect([...answers].sort()).toEqual(['slow_down', 'unknown']);
		const rows = (await db.rateLimitBucket.findMany({ orderBy: { key: 'asc' } })).map((row) => row.key);
		expect(rows).toEqual(['kiosk-key-source:' + source, 'kiosk-key-wrong:all']);
		for (const row of rows) expect(row).not.toContain('203.0.113.77');
		// The source slowed down still gets its real key accepted.
		expect(await enterKioskKey(db, clock, key, source)).toMatchObject({ kind: 'accepted' });
		// Buckets of sources long quiet go when a new source opens one.
		clock.advance(10 * MINUTE);
		await enterKioskKey(
			db,
			clock,
			'kk_one-wrong-key-xxxxxxxxxxxxxxx',
			hashClientIp('198.51.100.5', 'test-salt-0123456789')
		);
		expect(await db.rateLimitBucket.count({ where: { key: 'kiosk-key-source:' + source } })).toBe(0);
	});
});
