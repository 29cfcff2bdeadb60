import type { RequestHandler } from './$types';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { kioskHeartbeat } from '$lib/server/kiosk/kiosk-presence';
import { kioskEventStream } from '$lib/server/kiosk/kiosk-streams';
import { kioskPauseView, readKioskPause } from '$lib/server/jobs/queue-pause';

const PAUSE_CHECK_MS = 1_000;

/**
 * Kiosk-wide events while no guest session runs: the pause screen comes and goes by itself, with the
 * time the queue expects to be back when that is known (the provider's day quota). The page holds
 * this stream open all the time, so it also keeps the kiosk's last-seen time (online on the console's Kiosks page).
 */
export const GET: RequestHandler = async ({ cookies, request }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	return kioskEventStream(ctx, cookies, request.signal, (send) => {
		let last: string | null = null;
		const beat = kioskHeartbeat(ctx.app.db, ctx.app.clock, ctx.kiosk.id);
		const check = async () => {
			await beat().catch(() => undefined);
			const pause = await readKioskPause(ctx.app.db, ctx.app.clock).catch(() => null);
			const state = kioskPauseView(pause);
			if (JSON.stringify(state) !== last) send('kiosk', state);
			last = JSON.stringify(state);
		};
		void check();
		const timer = setInterval(() => void check(), PAUSE_CHECK_MS);
		return () => clearInterval(timer);
	});
};
