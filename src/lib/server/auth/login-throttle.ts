import type { Db } from '../db/client.ts';
import { lockKeys } from '../db/dialect/row-locks.ts';
import { DAY, HOUR, MINUTE, SECOND, type Clock } from '../time/clock.ts';

/**
 * Attempt throttling for secrets people type: console passwords and the kiosks'
 * staff PIN. Each attempt is counted under one or more keys; past a few free attempts a key waits an
 * exponentially growing delay. An attempt is counted *before* its secret is checked, in the same
 * BEGIN IMMEDIATE transaction that decides whether it may go ahead — so parallel attempts cannot
 * all read "free" before any of them is written down. One that turns out right is given back.
 *
 * Sign-in counts per (account, client) and per client, never per account alone, so an attacker
 * elsewhere cannot lock the real person out: the right password from another address still works.
 */
export interface ThrottlePolicy {
	freeFailures: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export interface ThrottleRule {
	key: string;
	policy: ThrottlePolicy;
}

export const ACCOUNT_CLIENT_POLICY: ThrottlePolicy = {
	freeFailures: 3,
	baseDelayMs: 2 * SECOND,
	maxDelayMs: 15 * MINUTE
};
export const CLIENT_POLICY: ThrottlePolicy = { freeFailures: 20, baseDelayMs: 2 * SECOND, maxDelayMs: HOUR };
/** A key quiet for this long starts again from zero. */
export const THROTTLE_FORGET_AFTER_MS = DAY;

export interface SignInRules {
	accountClient: ThrottleRule;
	client: ThrottleRule;
}

/** `ipHash` is the client's hash (privacy/ip-hash.ts): an IPv4 address or an IPv6 /64. */
export function signInRulesFor(username: string, ipHash: string): SignInRules {
	return {
		accountClient: { key: `acct:${username}|ip:${ipHash}`, policy: ACCOUNT_CLIENT_POLICY },
		client: { key: `ip:${ipHash}`, policy: CLIENT_POLICY }
	};
}

/** How long a key waits after `failures` counted attempts (0 while still free). */
export function throttleDelayMs(failures: number, policy: ThrottlePolicy): number {
	const over = failures - policy.freeFailures;
	if (over <= 0) return 0;
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(over - 1, 30));
}

/** Seconds until every key may try again (0 = now). A cheap read; reserveAttempt is what decides. */
export async function secondsUntilAllowed(db: Db, clock: Clock, keys: string[]): Promise<number> {
	const rows = await db.loginThrottle.findMany({ where: { key: { in: keys } } });
	return waitSeconds(rows, clock.now().getTime());
}

/**
 * Counts one attempt under every rule, unless a key is still waiting: then nothing is written and
 * the wait comes back. 0 means the attempt is reserved and its secret may be checked now.
 */
export async function reserveAttempt(db: Db, clock: Clock, rules: ThrottleRule[]): Promise<number> {
	return db.$transaction(async (tx) => {
		const now = clock.now();
		// Two sign-ins at once (two web processes) must not both count from the same failures. A new
		// address has no row yet, and a row lock holds nothing on a row that does not exist (both
		// would read "none" and the second write would overwrite the first): lock the keys instead.
		await lockKeys(tx, throttleLockKeys(rules.map((rule) => rule.key)));
		const rows = await tx.loginThrottle.findMany({ where: { key: { in: rules.map((rule) => rule.key) } } });
		const wait = waitSeconds(rows, now.getTime());
		if (wait > 0) return wait;
		for (const { key, policy } of rules) {
			const row = rows.find((candidate) => candidate.key === key);
			const stale = !row || now.getTime() - Date.parse(row.lastFailureAt) > THROTTLE_FORGET_AFTER_MS;
			const failures = stale ? 1 : row.failures + 1;
			const delay = throttleDelayMs(failures, policy);
			const data = {
				failures,
				lastFailureAt: now.toISOString(),
				blockedUntil: delay > 0 ? new Date(now.getTime() + delay).toISOString() : null
			};
			const firstFailureAt = stale ? now.toISOString() : row.firstFailureAt;
			await tx.loginThrottle.upsert({
				where: { key },
				create: { key, firstFailureAt, ...data },
				update: { firstFailureAt, ...data }
			});
		}
		return 0;
	});
}

/** The secret was right: these keys start again from zero. */
export async function forgetAttempts(db: Db, keys: string[]): Promise<void> {
	await db.loginThrottle.deleteMany({ where: { key: { in: keys } } });
}

/** The secret was right: the reserved attempt no longer counts against this key (its wait shrinks to match). */
export async function refundAttempt(db: Db, { key, policy }: ThrottleRule): Promise<void> {
	await db.$transaction(async (tx) => {
		await lockKeys(tx, throttleLockKeys([key]));
		const row = await tx.loginThrottle.findUnique({ where: { key } });
		if (!row || row.failures <= 0) return;
		const failures = row.failures - 1;
		const delay = throttleDelayMs(failures, policy);
		const blockedUntil = delay > 0 ? new Date(Date.parse(row.lastFailureAt) + delay).toISOString() : null;
		await tx.loginThrottle.update({ where: { key }, data: { failures, blockedUntil } });
	});
}

/** The lock keys of throttle keys: named apart from every other user of lockKeys. */
function throttleLockKeys(keys: string[]): string[] {
	return keys.map((key) => `login_throttle:${key}`);
}

/** The retention pass: a key quiet for a day would start from zero anyway. */
export async function deleteQuietThrottleRows(db: Db, clock: Clock): Promise<number> {
	const cutoff = new Date(clock.now().getTime() - THROTTLE_FORGET_AFTER_MS).toISOString();
	const { count } = await db.loginThrottle.deleteMany({ where: { lastFailureAt: { lt: cutoff } } });
	return count;
}

function waitSeconds(rows: { blockedUntil: string | null }[], now: number): number {
	const waits = rows.map((row) => (row.blockedUntil ? Date.parse(row.blockedUntil) - now : 0));
	return Math.max(0, Math.ceil(Math.max(0, ...waits) / SECOND));
}
