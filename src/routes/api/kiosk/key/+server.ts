import type { RequestHandler } from './$types';
import { kioskKeySchema } from '$lib/schemas/kiosk';
import { KIOSK_COOKIE, kioskCookieOptions } from '$lib/server/kiosk/kiosk-auth';
import { kioskError, kioskJson, pinLimiter } from '$lib/server/kiosk/kiosk-http';
import { findKioskByKey } from '$lib/server/kiosk/kiosk-keys';
import { readJsonBody } from '$lib/server/kiosk/kiosk-route';
import { appContext } from '$lib/server/web/app-context';

/** The page sends the key an operator typed in once; a valid key is kept in an httpOnly cookie. */
export const POST: RequestHandler = async ({ request, cookies, url, getClientAddress }) => {
	const parsed = kioskKeySchema.safeParse(await readJsonBody(request));
	if (!parsed.success) return kioskError(400, 'no_kiosk_key');
	// Guessing keys is pointless (256 bits), but a flood of attempts still gets slowed down.
	if (!pinLimiter.take(`key:${getClientAddress()}`)) return kioskError(429, 'rate_limited', {}, { 'retry-after': '30' });
	const kiosk = await findKioskByKey(appContext().db, parsed.data.key);
	if (!kiosk) return kioskError(401, 'no_kiosk_key');
	cookies.set(KIOSK_COOKIE, parsed.data.key, kioskCookieOptions(url.protocol === 'https:'));
	return kioskJson({ kiosk: { name: kiosk.name } });
};

export const DELETE: RequestHandler = async ({ cookies }) => {
	cookies.delete(KIOSK_COOKIE, { path: '/' });
	return kioskJson({ ok: true });
};
