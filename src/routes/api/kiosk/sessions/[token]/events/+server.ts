import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { readKioskSessionView } from '$lib/server/kiosk/kiosk-session';
import { sessionWatchHub } from '$lib/server/kiosk/session-watch';
import { kioskEventStream } from '$lib/server/kiosk/kiosk-streams';

/** Server-sent events: the session's view now, then every change (EventSource reconnects by itself). */
export const GET: RequestHandler = async ({ cookies, params, request }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const first = await readKioskSessionView(ctx.deps, ctx.kiosk.id, params.token);
	if (!first) return kioskError(404, 'not_found');
	const hub = sessionWatchHub(ctx.deps, (error) => ctx.app.logger.error({ err: error }, 'kiosk live updates failed'));
	return kioskEventStream(ctx, cookies, request.signal, (send) => {
		send('session', first);
		return hub.watch(params.token, (view) => send('session', view));
	});
};
