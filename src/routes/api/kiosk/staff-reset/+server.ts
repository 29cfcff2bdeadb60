import type { RequestHandler } from './$types';
import { staffResetSchema } from '$lib/schemas/kiosk';
import { kioskError, kioskJson } from '$lib/server/kiosk/kiosk-http';
import { readJsonBody, requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { closeKioskSessions } from '$lib/server/kiosk/kiosk-session';
import { tryStaffPin } from '$lib/server/kiosk/staff-pin';
import { readStaffPinSecret } from '$lib/server/kiosk/staff-pin-setting';

/** Staff PIN on the kiosk: closes its open session as staff_reset and the page returns to Start. */
export const POST: RequestHandler = async ({ request, cookies }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const parsed = staffResetSchema.safeParse(await readJsonBody(request));
	if (!parsed.success) return kioskError(400, 'wrong_pin');
	const secret = await readStaffPinSecret(ctx.app.db, ctx.app.config.KIOSK_STAFF_PIN);
	if (!secret) return kioskError(403, 'no_staff_pin');
	const pin = await tryStaffPin(ctx.app.db, ctx.app.clock, ctx.kiosk.id, secret, parsed.data.pin);
	if (!pin.ok && pin.reason === 'locked')
		return kioskError(
			429,
			'pin_locked',
			{ retryAfterSeconds: pin.retryAfterSeconds },
			{ 'retry-after': String(pin.retryAfterSeconds) }
		);
	if (!pin.ok && pin.reason === 'busy') return kioskError(429, 'rate_limited', {}, { 'retry-after': '1' });
	if (!pin.ok) return kioskError(403, 'wrong_pin');
	const closed = await closeKioskSessions(ctx.deps, ctx.kiosk.id, 'staff_reset');
	ctx.app.logger.info({ kiosk: ctx.kiosk.name, closed }, 'kiosk reset by staff');
	return kioskJson({ ok: true, closed });
};
