import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError, kioskJson } from '$lib/server/kiosk/kiosk-http';
import { listReadyStickers } from '$lib/server/kiosk/kiosk-ready-pack';
import { readyPackDeps, requireKiosk } from '$lib/server/kiosk/kiosk-route';

/** The delivered pack of this kiosk's latest session, for the "your pack is ready" screen (kiosk-ready-pack.ts says when). */
export const GET: RequestHandler = async ({ cookies, params }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const stickers = await listReadyStickers(readyPackDeps(ctx), ctx.kiosk.id, params.token);
	if (!stickers) return kioskError(404, 'not_found');
	return kioskJson({ stickers });
};
