import type { Db } from '../db/client.ts';
import { DAY, HOUR, MINUTE, SECOND, type Clock } from '../time/clock.ts';

/**
 * Sign-in throttling, per account and per client without locking the real person out. Failures are counted under two keys: the (account, client)
 * pair and the client alone. Past a few free failures each key waits an exponentially growing
 * delay. Nothing is counted per account alone, so an attacker elsewhere cannot lock the real
 * person out: the right password from another address still works.
 */
export interface ThrottlePolicy {
	freeFailures: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const ACCOUNT_CLIENT_POLICY: ThrottlePolicy = { freeFailures: 3, baseDelayMs: 2 * SECOND, maxDelayMs: 15 * MINUTE };
export const CLIENT_POLICY: ThrottlePolicy = { freeFailures: 20, baseDelayMs: 2 * SECOND, maxDelayMs: HOUR };
/** A key quiet for this long starts again from zero. */
export const THROTTLE_FORGET_AFTER_MS = DAY;

export interface ThrottleKeys {
	accountClient: string;
	client: string;
}

export function throttleKeysFor(username: string, ipHash: string): ThrottleKeys {
	return { accountClient: `acct:${username}|ip:${ipHash}`, client: `ip:${ipHash}` };
}

/** How long a key waits after `failures` failures (0 while still free). */
export function throttleDelayMs(failures: number, policy: ThrottlePolicy): number {
	const over = failures - policy.freeFailures;
	if (over <= 0) return 0;
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(over - 1, 30));
}

/** Seconds until either key may try again, or 0 when both may. */
export async function secondsUntilSignInAllowed(db: Db, clock: Clock, keys: ThrottleKeys): Promise<number> {
	const rows = await db.loginThrottle.findMany({ where: { key: { in: [keys.accountClient, keys.client] } } });
	const now = clock.now().getTime();
	const waits = rows.map((row) => (row.blockedUntil ? Date.parse(row.blockedUntil) - now : 0));
	return Math.max(0, Math.ceil(Math.max(0, ...waits) / 1000));
}

export async function recordSignInFailure(db: Db, clock: Clock, keys: ThrottleKeys): Promise<void> {
	await db.$transaction(async (tx) => {
		for (const [key, policy] of [[keys.accountClient, ACCOUNT_CLIENT_POLICY], [keys.client, CLIENT_POLICY]] as const) {
			const now = clock.now();
			const row = await tx.loginThrottle.findUnique({ where: { key } });
			const stale = !row || now.getTime() - Date.parse(row.lastFailureAt) > THROTTLE_FORGET_AFTER_MS;
			const failures = stale ? 1 : row.failures + 1;
			const delay = throttleDelayMs(failures, policy);
			const data = {
				failures,
				lastFailureAt: now.toISOString(),
				blockedUntil: delay > 0 ? new Date(now.getTime() + delay).toISOString() : null
			};
			await tx.loginThrottle.upsert({ where: { key }, create: { key, firstFailureAt: now.toISOString(), ...data }, update: stale ? { ...data, firstFailureAt: now.toISOString() } : data });
		}
	});
}

/** A successful sign-in forgets that pair's failures; the client's own counter keeps running down. */
export async function clearSignInFailures(db: Db, keys: ThrottleKeys): Promise<void> {
	await db.loginThrottle.deleteMany({ where: { key: keys.accountClient } });
}

export async function deleteQuietThrottleRows(db: Db, clock: Clock): Promise<number> {
	const cutoff = new Date(clock.now().getTime() - THROTTLE_FORGET_AFTER_MS).toISOString();
	const { count } = await db.loginThrottle.deleteMany({ where: { lastFailureAt: { lt: cutoff } } });
	return count;
}
