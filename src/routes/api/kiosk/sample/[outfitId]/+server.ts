import type { RequestHandler } from './$types';
import { kioskError } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { readKioskSamplePicture } from '$lib/server/kiosk/kiosk-start-screen';

/** One outfit picture of the Start screen's sample (an outfit of this kiosk's event, not a guest's sticker). */
export const GET: RequestHandler = async ({ cookies, params }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const png = await readKioskSamplePicture(ctx.app.db, ctx.app.fileStore, ctx.kiosk.id, params.outfitId);
	if (!png) return kioskError(404, 'not_found');
	// The address changes with the picture (?v=); private: behind the kiosk's cookie.
	return new Response(new Uint8Array(png), {
		headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=86400' }
	});
};
