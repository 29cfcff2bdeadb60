import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { readJsonSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import { readMaintenance, type Maintenance } from '../settings/maintenance.ts';
import type { Clock } from '../time/clock.ts';

/**
 * When the queue must not claim: `settings.maintenance` (an operator's pause, no funds, a wrong
 * model setting), or the provider's daily quota is spent (`settings.provider_pause` =
 * {since, until, reason}, until midnight Pacific). Both live in the database, so a restart keeps
 * the pause; every source holds the queue the same way.
 */
const PAUSE_KEY = 'provider_pause';
const quotaPauseSchema = z.object({ since: z.string().optional(), until: z.string(), reason: z.string() });

export type QueuePauseSource = Maintenance['source'] | 'quota_day';

export interface QueuePause {
	source: QueuePauseSource;
	reason: string;
	/** When the pause began (ISO UTC). */
	since: string;
	/** When it is expected to end, when that is known (the quota day's midnight Pacific). */
	until?: string;
}

export async function readQueuePause(db: Db, clock: Clock): Promise<QueuePause | null> {
	const maintenance = await readMaintenance(db);
	if (maintenance) return { source: maintenance.source, reason: maintenance.reason, since: maintenance.at || clock.now().toISOString() };
	// An unreadable pause is treated as over: the provider will say again if the quota is still out.
	const pause = await readJsonSetting(db, PAUSE_KEY, quotaPauseSchema);
	if (pause && Date.parse(pause.until) > clock.now().getTime()) return { source: 'quota_day', reason: pause.reason, since: pause.since ?? clock.now().toISOString(), until: pause.until };
	return null;
}

/** Returns false when a pause until the same time was already recorded (operators were told then). */
export async function pauseForQuotaDay(db: Db, clock: Clock, until: Date, reason: string): Promise<boolean> {
	const raw = await readSetting(db, PAUSE_KEY);
	const untilIso = until.toISOString();
	if (raw && raw.includes(untilIso)) return false;
	await writeSetting(db, clock, PAUSE_KEY, JSON.stringify({ since: clock.now().toISOString(), until: untilIso, reason: reason.slice(0, 500) }));
	return true;
}
