/**
 * The one backoff formula: capped exponential with jitter —
 * delay = min(cap, base · 2^(n−1)) · (low + (high − low) · random).
 * The default band [½, 1] is "equal jitter": half the delay is guaranteed, so retries never bunch
 * up at zero, the other half spreads them (AWS architecture blog, graphile-worker). A band around
 * 1 (e.g. [0.8, 1.2]) keeps the nominal delay on average and only spreads it.
 */
export interface BackoffPolicy {
	baseMs: number;
	capMs: number;
	jitter?: readonly [low: number, high: number];
}

export const EQUAL_JITTER = [0.5, 1] as const;

/** Past this many doublings every useful cap is reached; the bound keeps 2^n finite. */
const MAX_EXPONENT = 30;

export function computeBackoffMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
	const exponent = Math.min(MAX_EXPONENT, Math.max(0, attempt - 1));
	const capped = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
	const [low, high] = policy.jitter ?? EQUAL_JITTER;
	return Math.round(capped * (low + (high - low) * random()));
}
