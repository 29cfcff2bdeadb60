import type { Db } from '../db/client.ts';
import { SECOND, type Clock } from '../time/clock.ts';
import { touchKiosk } from './kiosk-keys.ts';

/**
 * Whether a kiosk is online, for the console. A kiosk page holds its kiosk event stream open
 * all the time (/api/kiosk/events), and that stream writes `kiosks.last_seen_at` every
 * KIOSK_SEEN_EVERY_MS (the page's hello writes it too). In the database, not in a process's
 * memory, so every web process of a fleet sees every kiosk. Three missed beats make it offline:
 * a tablet that lost Wi-Fi, slept or closed the page shows so within a minute.
 */
export const KIOSK_SEEN_EVERY_MS = 20 * SECOND;
export const KIOSK_ONLINE_WITHIN_SECONDS = 60;

export function isKioskOnline(lastSeenAt: string | null, now: Date): boolean {
	return lastSeenAt !== null && now.getTime() - Date.parse(lastSeenAt) <= KIOSK_ONLINE_WITHIN_SECONDS * SECOND;
}

/**
 * A heartbeat for one open stream: call it as often as convenient; it writes at most once per
 * KIOSK_SEEN_EVERY_MS by the clock (the first call writes at once).
 */
export function kioskHeartbeat(db: Db, clock: Clock, kioskId: number): () => Promise<void> {
	let lastWrite = -Infinity;
	return async () => {
		const now = clock.now().getTime();
		if (now - lastWrite < KIOSK_SEEN_EVERY_MS) return;
		lastWrite = now;
		await touchKiosk(db, clock, kioskId);
	};
}
