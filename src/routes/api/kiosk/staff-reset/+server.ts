import type { RequestHandler } from './$types';
import { staffResetSchema } from '$lib/schemas/kiosk';
import { kioskError, kioskJson, pinLimiter, rateLimited } from '$lib/server/kiosk/kiosk-http';
import { readJsonBody, requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { closeKioskSessions } from '$lib/server/kiosk/kiosk-session';
import { checkStaffPin } from '$lib/server/kiosk/staff-pin';

/** Staff PIN on the kiosk: closes its open session as staff_reset and the page returns to Start. */
export const POST: RequestHandler = async ({ request, cookies }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const parsed = staffResetSchema.safeParse(await readJsonBody(request));
	if (!parsed.success) return kioskError(400, 'wrong_pin');
	if (!ctx.app.config.KIOSK_STAFF_PIN) return kioskError(403, 'no_staff_pin');
	const limited = rateLimited(pinLimiter, ctx.kiosk);
	if (limited) return limited;
	if (!checkStaffPin(ctx.app.config.KIOSK_STAFF_PIN, parsed.data.pin)) return kioskError(403, 'wrong_pin');
	const closed = await closeKioskSessions(ctx.deps, ctx.kiosk.id, 'staff_reset');
	ctx.app.logger.info({ kiosk: ctx.kiosk.name, closed }, 'kiosk reset by staff');
	return kioskJson({ ok: true, closed });
};
