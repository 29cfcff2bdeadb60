import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError, kioskJson } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { readKioskSessionView } from '$lib/server/kiosk/kiosk-session';

/** One read of the session's live view (the events stream pushes the same shape). */
export const GET: RequestHandler = async ({ cookies, params }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const view = await readKioskSessionView(ctx.deps, ctx.kiosk.id, params.token);
	return view ? kioskJson(view) : kioskError(404, 'not_found');
};
