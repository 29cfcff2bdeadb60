import type { RequestHandler } from './$types';
import { kioskJson } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { readKioskStartScreen } from '$lib/server/kiosk/kiosk-start-screen';

/** The Start screen's event name, colours and outfit sample; the page reads it each time it shows Start. */
export const GET: RequestHandler = async ({ cookies }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	return kioskJson(await readKioskStartScreen(ctx.app.db, ctx.kiosk.id));
};
