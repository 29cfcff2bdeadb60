import type { RequestHandler } from './$types';
import { kioskCloseSchema, sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError, kioskJson } from '$lib/server/kiosk/kiosk-http';
import { readJsonBody, requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { closeKioskSession } from '$lib/server/kiosk/kiosk-session';

/** The kiosk closes its own session: the camera failed (camera_error) or the page is leaving (kiosk_reset). */
export const POST: RequestHandler = async ({ cookies, params, request }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const parsed = kioskCloseSchema.safeParse(await readJsonBody(request));
	if (!parsed.success || !sessionTokenSchema.safeParse(params.token).success) return kioskError(400, 'bad_request');
	const outcome = await closeKioskSession(ctx.deps, ctx.kiosk.id, params.token, parsed.data.reason);
	if (outcome.kind === 'not_found') return kioskError(404, 'not_found');
	return kioskJson({ closed: outcome.kind === 'closed' });
};
