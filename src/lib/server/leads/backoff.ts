import { HOUR, SECOND } from '../time/clock.ts';

/**
 * The one backoff formula of the leads outboxes: 15 s, 30 s, 1 min … capped at 1 h, with ±20 %
 * jitter so many failed rows do not retry in lockstep. A Telegram 429 names its own wait:
 * never retry sooner than that.
 */
export const BACKOFF_BASE_MS = 15 * SECOND;
export const BACKOFF_CAP_MS = HOUR;

export function backoffDelayMs(failedAttempts: number, retryAfterMs = 0, random: () => number = Math.random): number {
	const exponent = Math.max(0, failedAttempts - 1);
	const plain = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(exponent, 20));
	const jittered = plain * (0.8 + 0.4 * random());
	return Math.max(Math.round(jittered), retryAfterMs);
}

/** Errors kept on a row are short and never hold a stack. */
export function describeFailure(error: unknown, max = 300): string {
	const text = error instanceof Error ? error.message : String(error);
	return text.replace(/\s+/g, ' ').trim().slice(0, max);
}
