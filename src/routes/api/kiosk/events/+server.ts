import type { RequestHandler } from './$types';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { kioskEventStream } from '$lib/server/kiosk/kiosk-streams';
import { readMaintenance } from '$lib/server/settings/maintenance';

const PAUSE_CHECK_MS = 1_000;

/** Kiosk-wide events while no guest session runs: the pause screen comes and goes by itself. */
export const GET: RequestHandler = async ({ cookies, request }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	return kioskEventStream(ctx, cookies, request.signal, (send) => {
		let last: boolean | null = null;
		const check = async () => {
			const paused = (await readMaintenance(ctx.app.db).catch(() => null)) !== null;
			if (paused !== last) send('kiosk', { paused });
			last = paused;
		};
		void check();
		const timer = setInterval(() => void check(), PAUSE_CHECK_MS);
		return () => clearInterval(timer);
	});
};
