import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError } from '$lib/server/kiosk/kiosk-http';
import { readReadySticker } from '$lib/server/kiosk/kiosk-ready-pack';
import { readyPackDeps, requireKiosk } from '$lib/server/kiosk/kiosk-route';

/** One sticker of the ready pack (PNG or animated WebM), under the same rule as the list. */
export const GET: RequestHandler = async ({ cookies, params }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const sticker = await readReadySticker(readyPackDeps(ctx), ctx.kiosk.id, params.token, params.file);
	if (!sticker) return kioskError(404, 'not_found');
	// A drawing of a guest's face: never kept by the browser or anything between.
	return new Response(new Uint8Array(sticker.bytes), {
		headers: { 'content-type': sticker.contentType, 'cache-control': 'no-store' }
	});
};
