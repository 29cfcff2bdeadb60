import { createHash, timingSafeEqual } from 'node:crypto';
import { forgetAttempts, reserveAttempt, type ThrottlePolicy, type ThrottleRule } from '../auth/login-throttle.ts';
import { tryTakePasswordSlot } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import { HOUR, SECOND, type Clock } from '../time/clock.ts';
import type { StaffPinSecret } from './staff-pin-setting.ts';

/**
 * The staff PIN (set on the console's Kiosks page, or KIOSK_STAFF_PIN as the first default:
 * staff-pin-setting.ts) lets event staff reset a stuck kiosk. A PIN has few digits, so
 * wrong ones lock that kiosk out with a growing delay: three free, then 30 s, 1 min, 2 min … up to
 * an hour. The count lives in the database per kiosk (login_throttle), so neither a restart nor a
 * flood of other requests from other addresses resets it; only the right PIN does. Reaching the PIN
 * at all needs the kiosk's own key, so whoever is locked out is at that kiosk.
 */
export const STAFF_PIN_POLICY: ThrottlePolicy = { freeFailures: 3, baseDelayMs: 30 * SECOND, maxDelayMs: HOUR };

export function staffPinRule(kioskId: number): ThrottleRule {
	return { key: `pin:kiosk:${kioskId}`, policy: STAFF_PIN_POLICY };
}

export type StaffPinOutcome =
	| { ok: true }
	| { ok: false; reason: 'wrong' }
	| { ok: false; reason: 'locked'; retryAfterSeconds: number }
	/** Every argon2 slot of the process is busy (sign-ins): nothing was counted, try again in a second. */
	| { ok: false; reason: 'busy' };

/** Counts the attempt (atomically, before the compare), then compares; the right PIN clears the count. */
export async function tryStaffPin(
	db: Db,
	clock: Clock,
	kioskId: number,
	secret: StaffPinSecret,
	attempt: string
): Promise<StaffPinOutcome> {
	const slot = secret.kind === 'hash' ? tryTakePasswordSlot() : null;
	if (secret.kind === 'hash' && !slot) return { ok: false, reason: 'busy' };
	try {
		const rule = staffPinRule(kioskId);
		const wait = await reserveAttempt(db, clock, [rule]);
		if (wait > 0) return { ok: false, reason: 'locked', retryAfterSeconds: wait };
		const right =
			secret.kind === 'hash' ? await slot!.verify(secret.hash, attempt) : checkStaffPin(secret.pin, attempt);
		if (!right) return { ok: false, reason: 'wrong' };
		await forgetAttempts(db, [rule.key]);
		return { ok: true };
	} finally {
		slot?.release();
	}
}

/** Compared as SHA-256 digests in constant time, so neither the length nor the first wrong digit leaks through timing. */
export function checkStaffPin(configured: string | undefined, attempt: string): boolean {
	if (!configured) return false;
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(configured), digest(attempt));
}
