/**
 * A token bucket per key. In memory: correct for the one web process we run on one machine; with
 * several web instances it would have to move into the database. The table keeps at
 * most 10,000 keys and forgets the oldest first, so it must only hold limits whose loss favours the
 * client (a fresh bucket is a full one) — never a lockout (those live in login_throttle).
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
		const bucket = this.#refilled(key);
		this.#buckets.delete(key); // re-inserted below: the map's order is "least recently used first"
		this.#buckets.set(key, bucket);
		if (bucket.tokens < 1) return false;
		bucket.tokens -= 1;
		if (this.#buckets.size > 10_000) this.#buckets.delete(this.#buckets.keys().next().value!);
		return true;
	}

	/** Whether `key` has a token, without taking it. */
	has(key: string): boolean {
		return this.#refilled(key).tokens >= 1;
	}

	/** Seconds until `key` has a token again (for Retry-After). */
	retryAfterSeconds(key: string): number {
		const bucket = this.#buckets.get(key);
		if (!bucket) return 0;
		const { tokens } = this.#refilled(key);
		return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.refillPerSecond);
	}

	#refilled(key: string): { tokens: number; at: number } {
		const now = this.now();
		const bucket = this.#buckets.get(key) ?? { tokens: this.capacity, at: now };
		bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.refillPerSecond);
		bucket.at = now;
		return bucket;
	}
}
