import { SECOND } from '../time/clock.ts';

/**
 * A token bucket: a burst of `capacity` requests, refilled continuously at `refillPerSecond`.
 * `name` is the limit's part of every bucket key (`<name>:<subject>`), so limits never share a
 * bucket and each limit's full buckets can be told apart from the others'. Names are fixed
 * strings of letters and hyphens (they are matched with LIKE).
 */
export interface RateLimit {
	name: string;
	capacity: number;
	refillPerSecond: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A bucket as stored: its tokens at `at` (ms since the epoch). */
export interface BucketState {
	tokens: number;
	at: number;
}

/** The bucket's tokens at `now`: what it had plus the refill since, never past the capacity. */
export function tokensAt(limit: RateLimit, bucket: BucketState | null, now: number): number {
	if (!bucket) return limit.capacity;
	const refill = (Math.max(0, now - bucket.at) / SECOND) * limit.refillPerSecond;
	return Math.min(limit.capacity, bucket.tokens + refill);
}

/** Allowed while a whole token is there; otherwise the seconds until one is (for Retry-After, at least 1). */
export function decide(limit: RateLimit, tokens: number): RateDecision {
	if (tokens >= 1) return { allowed: true };
	return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / limit.refillPerSecond)) };
}

/** After this long untouched a bucket is full whatever it held: the same as having no bucket. */
export function fullAfterMs(limit: RateLimit): number {
	return Math.ceil((limit.capacity / limit.refillPerSecond) * SECOND);
}
