import { describe, expect, it } from 'vitest';
import { decide, fullAfterMs, tokensAt, type RateLimit } from './token-bucket.ts';

describe('token bucket arithmetic', () => {
	const limit: RateLimit = { name: 'test-limit', capacity: 2, refillPerSecond: 1 / 10 };

	it('no bucket is a full one; the refill is continuous and stops at the capacity', () => {
		expect(tokensAt(limit, null, 0)).toBe(2);
		expect(tokensAt(limit, { tokens: 0, at: 0 }, 5_000)).toBeCloseTo(0.5);
		expect(tokensAt(limit, { tokens: 0, at: 0 }, 3_600_000)).toBe(2);
	});

	it('a clock that went back refills nothing (and takes nothing away)', () => {
		expect(tokensAt(limit, { tokens: 1.5, at: 10_000 }, 0)).toBe(1.5);
	});

	it('allows on a whole token; otherwise the seconds until one, at least 1', () => {
		expect(decide(limit, 1)).toEqual({ allowed: true });
		expect(decide(limit, 0)).toEqual({ allowed: false, retryAfterSeconds: 10 });
		expect(decide(limit, 0.1)).toEqual({ allowed: false, retryAfterSeconds: 9 });
		expect(decide(limit, 0.99)).toEqual({ allowed: false, retryAfterSeconds: 1 });
	});

	it('a bucket is full again after capacity ÷ refill seconds', () => {
		expect(fullAfterMs(limit)).toBe(20_000);
		expect(fullAfterMs({ name: 'kiosk-key-retry', capacity: 5, refillPerSecond: 1 / 30 })).toBe(150_000);
	});
});
