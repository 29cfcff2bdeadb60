import { describe, expect, it } from 'vitest';
import { InProcessRateLimiter } from './rate-limiter.ts';

describe('InProcessRateLimiter', () => {
	const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 10, 0, 0) + seconds * 1000);

	it('lets a burst of the rate through, then refuses with the seconds until the next request refills', () => {
		const limiter = new InProcessRateLimiter();
		const decisions = [0, 0, 0, 0].map(() => limiter.take('t', 3, at(0)));
		expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
		expect(decisions[3]).toEqual({ allowed: false, retryAfterSeconds: 20 });
		expect(limiter.take('t', 3, at(15))).toEqual({ allowed: false, retryAfterSeconds: 5 });
		expect(limiter.take('t', 3, at(20)).allowed).toBe(true);
		expect(limiter.take('t', 3, at(20)).allowed).toBe(false);
	});

	it('keeps one bucket per key and never refills past the burst', () => {
		const limiter = new InProcessRateLimiter();
		expect(limiter.take('a', 1, at(0)).allowed).toBe(true);
		expect(limiter.take('b', 1, at(0)).allowed).toBe(true);
		expect(limiter.take('a', 1, at(0)).allowed).toBe(false);
		const later = [0, 0].map(() => limiter.take('a', 1, at(3600)).allowed);
		expect(later).toEqual([true, false]);
	});
});
