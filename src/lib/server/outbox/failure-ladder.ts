import { errorText } from '../errors/error-text.ts';
import { readSendFailure } from '../telegram/errors.ts';
import { computeBackoffMs, type BackoffPolicy } from '../time/backoff.ts';

/**
 * The one failure ladder of every outbox: what a failed Bot API call means for its row.
 *
 *   403 blocked / 400 unreachable ──(a person's chat)──→ give up, recorded as such
 *                                 ──(the sales group)──→ retry: the staff can fix the group
 *   429 flood control            ──→ retry, never sooner than retry_after
 *   5xx, timeout, dropped line   ──→ retry after the backoff (one formula, time/backoff.ts)
 *   the maxAttempts-th counted failure ──→ poison: given up with its reason
 */
export interface FailureLadder {
	backoff: BackoffPolicy;
	/** The counted failure at which the row is given up (poison); null = never (the row waits for a fix). */
	maxAttempts: number | null;
	/**
	 * `person`: a 403/400 ends the row (writing again fails the same way); `group`: the sales group,
	 * a chat the staff configure — a 403/400 is retried until they fix it.
	 */
	recipient: 'person' | 'group';
	/**
	 * Whether a 429 counts as an attempt. Broadcasts: no (flood control says nothing about the guest,
	 * and a long broadcast must not poison rows on it); guest notices and lead cards count it as the
	 * tries they are (their counters predate the driver and the console and tests read them).
	 */
	floodCountsAsAttempt: boolean;
}

/** How a row ends without being sent: from the ladder (blocked, unreachable, poison) or before a call (skipped). */
export type EndReason = 'blocked' | 'unreachable' | 'poison' | 'skipped';

export type FailureVerdict =
	| { verdict: 'retry'; retryAt: Date; countsAsAttempt: boolean; retryAfterMs: number; error: string }
	| { verdict: 'end'; as: Exclude<EndReason, 'skipped'>; retryAfterMs: number; error: string };

/**
 * The verdict on the `attempt`-th try of a row (1 = the first) that failed with `error`. Pure: the
 * driver records it, notes a 429 in the send budget and logs.
 */
export function decideAfterFailure(
	error: unknown,
	attempt: number,
	ladder: FailureLadder,
	now: Date,
	random: () => number = Math.random
): FailureVerdict {
	const failure = readSendFailure(error);
	const text = errorText(error);
	if (failure.outcome !== 'retry') {
		if (ladder.recipient === 'person') return { verdict: 'end', as: failure.outcome, retryAfterMs: 0, error: text };
	}
	const retryAfterMs = failure.outcome === 'retry' ? failure.retryAfterMs : 0;
	const countsAsAttempt = retryAfterMs === 0 || ladder.floodCountsAsAttempt;
	if (countsAsAttempt && ladder.maxAttempts !== null && attempt >= ladder.maxAttempts)
		return { verdict: 'end', as: 'poison', retryAfterMs, error: text };
	const backoffMs = countsAsAttempt ? computeBackoffMs(attempt, ladder.backoff, random) : 0;
	return {
		verdict: 'retry',
		retryAt: new Date(now.getTime() + Math.max(backoffMs, retryAfterMs)),
		countsAsAttempt,
		retryAfterMs,
		error: text
	};
}
