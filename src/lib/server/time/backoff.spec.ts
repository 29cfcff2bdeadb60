import { describe, expect, it } from 'vitest';
import { GrammyError } from 'grammy';
import { LEADS_BACKOFF } from '../leads/backoff.ts';
import { decideAfterFailure } from '../outbox/failure-ladder.ts';
import { computeBackoffMs } from './backoff.ts';

describe('computeBackoffMs: one capped exponential backoff with a jitter band', () => {
	it('doubles from the base up to the cap; equal jitter keeps at least half of it', () => {
		const policy = { baseMs: 1000, capMs: 30_000 };
		expect([1, 2, 3, 4].map((n) => computeBackoffMs(n, policy, () => 1))).toEqual([1000, 2000, 4000, 8000]);
		expect(computeBackoffMs(1, policy, () => 0)).toBe(500);
		expect(computeBackoffMs(10, policy, () => 0)).toBe(15_000);
		expect(computeBackoffMs(10_000, policy, () => 1)).toBe(30_000);
	});

	it('a band around 1 spreads the delay without shortening it on average', () => {
		const policy = { baseMs: 15_000, capMs: 3_600_000, jitter: [0.8, 1.2] as const };
		expect(computeBackoffMs(1, policy, () => 0.5)).toBe(15_000);
		expect(computeBackoffMs(1, policy, () => 0)).toBe(12_000);
		expect(computeBackoffMs(1, policy, () => 1)).toBe(18_000);
	});

	it('a zero base stays zero at any attempt (no 0 · ∞)', () => {
		expect(computeBackoffMs(5000, { baseMs: 0, capMs: 60_000 }, () => 1)).toBe(0);
	});

	it('the leads outboxes: 15 s doubling to 1 h, ±20 %, never sooner than Telegram asked', () => {
		expect(computeBackoffMs(1, LEADS_BACKOFF, () => 0.5)).toBe(15_000);
		expect(computeBackoffMs(3, LEADS_BACKOFF, () => 0.5)).toBe(60_000);
		expect(computeBackoffMs(40, LEADS_BACKOFF, () => 1)).toBe(4_320_000);
		const flood = new GrammyError(
			'429',
			{ ok: false, error_code: 429, description: 'Too Many Requests', parameters: { retry_after: 45 } },
			'sendMessage',
			{}
		);
		const ladder = {
			backoff: LEADS_BACKOFF,
			maxAttempts: null,
			recipient: 'group',
			floodCountsAsAttempt: true
		} as const;
		const verdict = decideAfterFailure(flood, 1, ladder, new Date(0), () => 0.5);
		expect(verdict.verdict === 'retry' && verdict.retryAt.getTime()).toBe(45_000);
	});
});
