import { MINUTE } from '../time/clock.ts';

/**
 * Per-token request limits for /api/v1. The interface is what the API depends on; this process
 * keeps the buckets in memory (one web process per data directory), so a restart refills them.
 * A limiter shared by several web processes would keep the same buckets in the database.
 */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
	/** Takes one request from `key`'s allowance of `perMinute` at time `now`. */
	take(key: string, perMinute: number, now: Date): RateDecision;
}

interface Bucket {
	tokens: number;
	at: number;
}

/**
 * Token bucket: a burst of `perMinute` requests, refilled continuously at perMinute a minute.
 * Idle buckets are dropped, so memory stays with the active tokens.
 */
export class InProcessRateLimiter implements RateLimiter {
	private readonly buckets = new Map<string, Bucket>();

	take(key: string, perMinute: number, now: Date): RateDecision {
		const at = now.getTime();
		const perMs = perMinute / MINUTE;
		const bucket = this.buckets.get(key) ?? { tokens: perMinute, at };
		const tokens = Math.min(perMinute, bucket.tokens + Math.max(0, at - bucket.at) * perMs);
		if (tokens < 1) {
			this.buckets.set(key, { tokens, at });
			return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
		}
		this.buckets.set(key, { tokens: tokens - 1, at });
		this.forgetFullBuckets(at);
		return { allowed: true };
	}

	/** A bucket idle for a minute is full again, the same as no bucket. */
	private forgetFullBuckets(at: number): void {
		if (this.buckets.size < 1000) return;
		for (const [key, bucket] of this.buckets) if (at - bucket.at >= MINUTE) this.buckets.delete(key);
	}
}
