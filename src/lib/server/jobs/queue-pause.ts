import type { Db } from '../db/client.ts';
import { readSetting, writeSetting } from '../settings/settings.repository.ts';
import { readMaintenance } from '../settings/maintenance.ts';
import type { Clock } from '../time/clock.ts';

/**
 * When the queue must not claim: `settings.maintenance` (operator pause or no funds), or the
 * provider's daily quota is spent (`settings.provider_pause` = {until, reason}, until midnight
 * Pacific). Both live in the database, so a restart keeps the pause.
 */
const PAUSE_KEY = 'provider_pause';

export interface QueuePause {
	kind: 'maintenance' | 'quota_day';
	reason: string;
	until?: string;
}

export async function readQueuePause(db: Db, clock: Clock): Promise<QueuePause | null> {
	const maintenance = await readMaintenance(db);
	if (maintenance) return { kind: 'maintenance', reason: maintenance.reason };
	const raw = await readSetting(db, PAUSE_KEY);
	if (!raw) return null;
	try {
		const pause = JSON.parse(raw) as { until: string; reason: string };
		if (Date.parse(pause.until) > clock.now().getTime()) return { kind: 'quota_day', reason: pause.reason, until: pause.until };
	} catch {
		// An unreadable pause is treated as over: the provider will say again if the quota is still out.
	}
	return null;
}

/** Returns false when a pause until the same time was already recorded (operators were told then). */
export async function pauseForQuotaDay(db: Db, clock: Clock, until: Date, reason: string): Promise<boolean> {
	const raw = await readSetting(db, PAUSE_KEY);
	const untilIso = until.toISOString();
	if (raw && raw.includes(untilIso)) return false;
	await writeSetting(db, clock, PAUSE_KEY, JSON.stringify({ until: untilIso, reason: reason.slice(0, 500) }));
	return true;
}
