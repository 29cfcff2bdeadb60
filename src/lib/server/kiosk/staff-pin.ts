import { createHash, timingSafeEqual } from 'node:crypto';
import { forgetAttempts, reserveAttempt, type ThrottlePolicy, type ThrottleRule } from '../auth/login-throttle.ts';
import type { Db } from '../db/client.ts';
import { HOUR, SECOND, type Clock } from '../time/clock.ts';

/**
 * The staff PIN (KIOSK_STAFF_PIN) lets event staff reset a stuck kiosk. A PIN has few digits, so
 * wrong ones lock that kiosk out with a growing delay: three free, then 30 s, 1 min, 2 min … up to
 * an hour. The count lives in the database per kiosk (login_throttle), so neither a restart nor a
 * flood of other requests from other addresses resets it; only the right PIN does. Reaching the PIN
 * at all needs the kiosk's own key, so whoever is locked out is at that kiosk.
 */
export const STAFF_PIN_POLICY: ThrottlePolicy = { freeFailures: 3, baseDelayMs: 30 * SECOND, maxDelayMs: HOUR };

export function staffPinRule(kioskId: number): ThrottleRule {
	return { key: `pin:kiosk:${kioskId}`, policy: STAFF_PIN_POLICY };
}

export type StaffPinOutcome = { ok: true } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/** Counts the attempt (atomically, before the compare), then compares; the right PIN clears the count. */
export async function tryStaffPin(db: Db, clock: Clock, kioskId: number, configured: string, attempt: string): Promise<StaffPinOutcome> {
	const rule = staffPinRule(kioskId);
	const wait = await reserveAttempt(db, clock, [rule]);
	if (wait > 0) return { ok: false, reason: 'locked', retryAfterSeconds: wait };
	if (!checkStaffPin(configured, attempt)) return { ok: false, reason: 'wrong' };
	await forgetAttempts(db, [rule.key]);
	return { ok: true };
}

/** Compared as SHA-256 digests in constant time, so neither the length nor the first wrong digit leaks through timing. */
export function checkStaffPin(configured: string | undefined, attempt: string): boolean {
	if (!configured) return false;
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(configured), digest(attempt));
}
