import { HOUR, SECOND } from '../time/clock.ts';
import { computeBackoffMs, type BackoffPolicy } from '../time/backoff.ts';

/**
 * The backoff of the leads outboxes: 15 s, 30 s, 1 min … capped at 1 h, with ±20 % jitter so many
 * failed rows do not retry in lockstep. A Telegram 429 names its own wait: never retry sooner than that.
 */
export const LEADS_BACKOFF: BackoffPolicy = { baseMs: 15 * SECOND, capMs: HOUR, jitter: [0.8, 1.2] };

export function backoffDelayMs(failedAttempts: number, retryAfterMs = 0, random: () => number = Math.random): number {
	return Math.max(computeBackoffMs(failedAttempts, LEADS_BACKOFF, random), retryAfterMs);
}

