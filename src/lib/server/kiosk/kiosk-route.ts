import type { Cookies } from '@sveltejs/kit';
import { appContext, type AppContext } from '../web/app-context.ts';
import { KIOSK_COOKIE, kioskDepsFrom, kioskFromCookie } from './kiosk-auth.ts';
import { kioskError } from './kiosk-http.ts';
import type { Kiosk } from './kiosk-keys.ts';
import type { ReadyPackDeps } from './kiosk-ready-pack.ts';
import type { KioskDeps } from './kiosk-session.ts';

export interface KioskRequest {
	app: AppContext;
	deps: KioskDeps;
	kiosk: Kiosk;
}

/** Glue for every kiosk endpoint: the registered kiosk behind the cookie, or a 401 to answer with. */
export async function requireKiosk(cookies: Cookies): Promise<KioskRequest | Response> {
	const app = appContext();
	const kiosk = await kioskFromCookie(app.db, cookies.get(KIOSK_COOKIE));
	if (!kiosk) return kioskError(401, 'no_kiosk_key');
	return { app, deps: kioskDepsFrom(app), kiosk };
}

/** What the ready pack's rule needs: the database, the clock, the file store and the file TTL. */
export function readyPackDeps(ctx: KioskRequest): ReadyPackDeps {
	return { db: ctx.app.db, clock: ctx.app.clock, files: ctx.app.fileStore, ttlHours: ctx.app.config.PHOTO_TTL_HOURS };
}

export async function readJsonBody(request: Request): Promise<unknown> {
	try {
		return await request.json();
	} catch {
		return null;
	}
}
