/**
 * A token bucket per key (a kiosk id). In memory: correct for the one web process we run on one
 * machine; with several web instances it would have to move into the database.
 */
export class TokenBuckets {
	readonly #buckets = new Map<string, { tokens: number; at: number }>();

	constructor(
		private readonly capacity: number,
		private readonly refillPerSecond: number,
		private readonly now: () => number = Date.now
	) {}

	/** Takes one token for `key`; false when the bucket is empty (the caller answers 429). */
	take(key: string): boolean {
		const now = this.now();
		const bucket = this.#buckets.get(key) ?? { tokens: this.capacity, at: now };
		bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.refillPerSecond);
		bucket.at = now;
		if (bucket.tokens < 1) {
			this.#buckets.set(key, bucket);
			return false;
		}
		bucket.tokens -= 1;
		this.#buckets.set(key, bucket);
		if (this.#buckets.size > 10_000) this.#buckets.delete(this.#buckets.keys().next().value!);
		return true;
	}

	/** Seconds until `key` has a token again (for Retry-After). */
	retryAfterSeconds(key: string): number {
		const bucket = this.#buckets.get(key);
		if (!bucket || bucket.tokens >= 1) return 0;
		return Math.ceil((1 - bucket.tokens) / this.refillPerSecond);
	}
}
