import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The staff PIN (KIOSK_STAFF_PIN) lets event staff reset a stuck kiosk. Compared as SHA-256 digests
 * with a constant-time compare, so neither the length nor the first wrong digit leaks through timing.
 */
export function checkStaffPin(configured: string | undefined, attempt: string): boolean {
	if (!configured) return false;
	const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
	return timingSafeEqual(digest(configured), digest(attempt));
}
