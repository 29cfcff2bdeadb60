import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limit.ts';

describe('TokenBuckets', () => {
	it('takes up to the capacity, refills over time and says when the next token comes', () => {
		let now = 0;
		const buckets = new TokenBuckets(2, 1 / 10, () => now);
		expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([true, true, false]);
		expect(buckets.has('a')).toBe(false);
		expect(buckets.retryAfterSeconds('a')).toBe(10);
		expect(buckets.take('b')).toBe(true); // another key has its own bucket
		now = 9_000;
		expect(buckets.retryAfterSeconds('a')).toBe(1);
		now = 10_000;
		expect(buckets.has('a')).toBe(true);
		expect(buckets.has('a')).toBe(true); // looking takes nothing
		expect(buckets.take('a')).toBe(true);
		expect(buckets.take('a')).toBe(false);
	});

	it('an unknown key has a full bucket and is not stored by looking at it', () => {
		const buckets = new TokenBuckets(1, 1, () => 0);
		expect(buckets.has('never-seen')).toBe(true);
		expect(buckets.retryAfterSeconds('never-seen')).toBe(0);
	});

	it('forgets the least recently used key first once it holds 10,000', () => {
		const now = 0;
		const buckets = new TokenBuckets(1, 1 / 3600, () => now);
		buckets.take('old');
		buckets.take('busy');
		for (let i = 0; i < 9_998; i++) buckets.take(`filler-${i}`);
		buckets.take('busy'); // used again: now the most recent
		buckets.take('one-more');
		expect(buckets.has('old')).toBe(true); // forgotten: a fresh, full bucket
		expect(buckets.has('busy')).toBe(false);
	});
});
