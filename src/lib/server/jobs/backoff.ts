/**
 * The one backoff formula of the queue: capped exponential with "equal jitter" —
 * delay = min(cap, base · 2^(n−1)) · (½ + ½·random). Half the delay is guaranteed, so retries
 * never bunch up at zero; the other half spreads them (AWS architecture blog, graphile-worker).
 */
export interface BackoffPolicy {
	baseMs: number;
	capMs: number;
}

export function computeBackoffMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
	const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(exponential * (0.5 + 0.5 * random()));
}
