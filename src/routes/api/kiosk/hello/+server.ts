import type { RequestHandler } from './$types';
import { kioskJson } from '$lib/server/kiosk/kiosk-http';
import { touchKiosk } from '$lib/server/kiosk/kiosk-keys';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { closeKioskSessions } from '$lib/server/kiosk/kiosk-session';
import { kioskPauseView, readKioskPause } from '$lib/server/jobs/queue-pause';
import { readStaffPinSecret } from '$lib/server/kiosk/staff-pin-setting';

/**
 * The kiosk page calls this once when it loads. A session this kiosk still had open was abandoned
 * by the reload, so it is closed as kiosk_reset (the guest's bot learns it at their next tap).
 */
export const POST: RequestHandler = async ({ cookies }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const closed = await closeKioskSessions(ctx.deps, ctx.kiosk.id, 'kiosk_reset');
	await touchKiosk(ctx.app.db, ctx.app.clock, ctx.kiosk.id);
	const pause = await readKioskPause(ctx.app.db, ctx.app.clock);
	const staffPin = (await readStaffPinSecret(ctx.app.db, ctx.app.config.KIOSK_STAFF_PIN)) !== null;
	return kioskJson({ kiosk: { name: ctx.kiosk.name }, closed, ...kioskPauseView(pause), staffPin });
};
