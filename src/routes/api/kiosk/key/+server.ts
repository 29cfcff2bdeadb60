import type { RequestHandler } from './$types';
import { kioskKeySchema } from '$lib/schemas/kiosk';
import { KIOSK_COOKIE, kioskCookieOptions } from '$lib/server/kiosk/kiosk-auth';
import { kioskError, kioskJson } from '$lib/server/kiosk/kiosk-http';
import { enterKioskKey } from '$lib/server/kiosk/kiosk-keys';
import { readJsonBody } from '$lib/server/kiosk/kiosk-route';
import { hashClientIp, ipSaltFor } from '$lib/server/privacy/ip-hash';
import { appContext } from '$lib/server/web/app-context';

/** The page sends the key an operator typed in once; a valid key is kept in an httpOnly cookie. */
export const POST: RequestHandler = async ({ request, cookies, url, locals }) => {
	const parsed = kioskKeySchema.safeParse(await readJsonBody(request));
	if (!parsed.success) return kioskError(400, 'no_kiosk_key');
	const app = appContext();
	const entry = await enterKioskKey(
		app.db,
		app.clock,
		parsed.data.key,
		hashClientIp(locals.clientIp ?? 'unknown', ipSaltFor(app.config))
	);
	if (entry.kind === 'slow_down')
		return kioskError(429, 'rate_limited', {}, { 'retry-after': String(entry.retryAfterSeconds) });
	if (entry.kind === 'unknown') return kioskError(401, 'no_kiosk_key');
	cookies.set(KIOSK_COOKIE, parsed.data.key, kioskCookieOptions(url.protocol === 'https:'));
	return kioskJson({ kiosk: { name: entry.kiosk.name } });
};

export const DELETE: RequestHandler = async ({ cookies }) => {
	cookies.delete(KIOSK_COOKIE, { path: '/' });
	return kioskJson({ ok: true });
};
