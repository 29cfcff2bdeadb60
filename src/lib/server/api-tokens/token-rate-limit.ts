import type { RateLimit } from '../rate-limits/token-bucket.ts';

/**
 * A token's allowance on /api/v1: a burst of its `rate_per_minute`, refilled continuously at that
 * rate, so an idle token is full again after a minute. Counted per token id in the database
 * (rate-limits/), shared by every web process.
 */
export function apiTokenLimit(perMinute: number): RateLimit {
	return { name: 'api-token', capacity: perMinute, refillPerSecond: perMinute / 60 };
}
