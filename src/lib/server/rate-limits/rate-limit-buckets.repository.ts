import { isIP } from 'node:net';
import type { Db, Tx } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { Prisma } from '../db/generated/client.ts';
import type { Clock } from '../time/clock.ts';
import { decide, fullAfterMs, tokensAt, type BucketState, type RateDecision, type RateLimit } from './token-bucket.ts';

/**
 * The token buckets of every request limit, in `rate_limit_buckets`, so all web processes on one
 * database count against the same allowance (behind a load balancer a kiosk gets its 10 starts,
 * not 10 per process). A take is one transaction: on SQLite BEGIN IMMEDIATE holds the one write
 * lock, on PostgreSQL the bucket's row is locked (FOR UPDATE) between reading and writing it.
 */

/** Takes one token from `subject`'s bucket of `limit`, or says how long until one is there. */
export async function takeToken(db: Db, clock: Clock, limit: RateLimit, subject: string): Promise<RateDecision> {
	const key = bucketKey(limit, subject);
	return db.$transaction(async (tx) => {
		const now = clock.now();
		// A full bucket to lock when there is none: FOR UPDATE locks only rows that exist, so two
		// first takes at once would otherwise both start from a full bucket.
		const created = await tx.$executeRaw`INSERT INTO rate_limit_buckets (key, tokens, updated_at)
			VALUES (${key}, ${limit.capacity}, ${now.toISOString()}) ON CONFLICT (key) DO NOTHING`;
		// A new key is what grows the table, so the take that adds one removes the buckets full again.
		if (created > 0) await deleteFullBuckets(tx, clock, limit);
		const tokens = tokensAt(limit, await readLockedBucket(tx, key), now.getTime());
		const decision = decide(limit, tokens);
		// A refused take changes nothing: the refill from the stored state gives the same tokens later.
		if (decision.allowed)
			await tx.rateLimitBucket.update({ where: { key }, data: { tokens: tokens - 1, updatedAt: now.toISOString() } });
		return decision;
	});
}

/** Whether `subject` has a token in `limit`, without taking it (a read; writes nothing). */
export async function peekToken(db: Db, clock: Clock, limit: RateLimit, subject: string): Promise<RateDecision> {
	const row = await db.rateLimitBucket.findUnique({ where: { key: bucketKey(limit, subject) } });
	const bucket = row ? { tokens: row.tokens, at: Date.parse(row.updatedAt) } : null;
	return decide(limit, tokensAt(limit, bucket, clock.now().getTime()));
}

/**
 * Deletes `limit`'s buckets untouched for longer than a refill from empty: each is full, the same
 * as no row, so no answer changes. Buckets another take holds are passed over (SKIP LOCKED on
 * PostgreSQL): that take is refreshing them, and a prune never waits for another transaction.
 */
async function deleteFullBuckets(db: Db | Tx, clock: Clock, limit: RateLimit): Promise<number> {
	const cutoff = new Date(clock.now().getTime() - fullAfterMs(limit)).toISOString();
	const lock = Prisma.raw(dialectOf(db).claimLock('b'));
	return db.$executeRaw`DELETE FROM rate_limit_buckets WHERE key IN (
		SELECT b.key FROM rate_limit_buckets b WHERE b.key LIKE ${`${limit.name}:%`} AND b.updated_at < ${cutoff} ${lock})`;
}

/** Raw SQL: Prisma's findUnique cannot lock the row it reads. */
async function readLockedBucket(tx: Tx, key: string): Promise<BucketState | null> {
	const lock = Prisma.raw(dialectOf(tx).lockRead('rate_limit_buckets'));
	const rows = await tx.$queryRaw<{ tokens: number; updated_at: string }[]>`
		SELECT tokens, updated_at FROM rate_limit_buckets WHERE key = ${key} ${lock}`;
	const row = rows[0];
	return row ? { tokens: Number(row.tokens), at: Date.parse(row.updated_at) } : null;
}

/** Client addresses are never stored (privacy/ip-hash.ts): a subject is an id or a hash. */
function bucketKey(limit: RateLimit, subject: string): string {
	if (isIP(subject))
		throw new Error(`rate limit ${limit.name}: a bucket key must not hold a client address; hash it with hashClientIp`);
	return `${limit.name}:${subject}`;
}
