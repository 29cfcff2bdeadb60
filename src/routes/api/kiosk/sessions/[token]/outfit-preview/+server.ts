import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError } from '$lib/server/kiosk/kiosk-http';
import { readKioskOutfitPreview } from '$lib/server/kiosk/kiosk-outfit-preview';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';

/** The picture of the session's chosen outfit for the camera screen (the kiosk's cookie, like every kiosk call). */
export const GET: RequestHandler = async ({ cookies, params }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const png = await readKioskOutfitPreview(ctx.deps, ctx.app.fileStore, ctx.kiosk.id, params.token);
	if (!png) return kioskError(404, 'not_found');
	// The address changes with the picture (?v=), so the kiosk may keep it; private: behind the kiosk's cookie.
	return new Response(new Uint8Array(png), {
		headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=86400' }
	});
};
