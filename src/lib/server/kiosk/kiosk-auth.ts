import type { Config } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { sessionTimeoutsFrom } from '../guests/session-clock.ts';
import type { Clock } from '../time/clock.ts';
import type { RuntimeSettings } from '../settings/runtime-settings.ts';
import { findKioskByKey, type Kiosk } from './kiosk-keys.ts';
import type { KioskDeps } from './kiosk-session.ts';

/** The kiosk key travels in this httpOnly cookie (EventSource cannot send headers). */
export const KIOSK_COOKIE = 'kiosk_key';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

export function kioskCookieOptions(secure: boolean) {
	return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure, maxAge: YEAR_SECONDS };
}

export function kioskDepsFrom(app: { db: Db; clock: Clock; config: Config; runtime: RuntimeSettings }): KioskDeps {
	const packsPerGuest = async () => (await app.runtime.read()).packsPerGuest;
	return {
		db: app.db,
		clock: app.clock,
		timeouts: sessionTimeoutsFrom(app.config),
		slots: app.config.WORKER_SLOTS,
		packsPerGuest
	};
}

/** The kiosk behind a request's cookie, or null (the caller answers 401 and the page asks for the key). */
export function kioskFromCookie(db: Db, cookieValue: string | undefined): Promise<Kiosk | null> {
	return findKioskByKey(db, cookieValue);
}
