import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { readJsonSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import { readMaintenance, type Maintenance } from '../settings/maintenance.ts';
import type { Clock } from '../time/clock.ts';
import type { KioskPauseView } from '../../schemas/kiosk.ts';

/**
 * When the queue must not claim: `settings.maintenance` (an operator's pause, no funds, a wrong
 * model or key setting), the provider's daily quota is spent (`settings.provider_pause` =
 * {since, until, reason}, until midnight Pacific), or its per-minute quota is (`settings.provider_hold`,
 * the same shape, for the retry delay the provider named — seconds, not hours). All live in the
 * database, so a restart and every worker of a fleet keep them; every source holds the queue the
 * same way. The kiosk ignores the per-minute hold (readKioskPause): guests may keep taking photos,
 * their jobs wait a few seconds more.
 */
const PAUSE_KEY = 'provider_pause';
const HOLD_KEY = 'provider_hold';
const quotaPauseSchema = z.object({ since: z.string().optional(), until: z.string(), reason: z.string() });

export type QueuePauseSource = Maintenance['source'] | 'quota_day' | 'quota_minute';

export interface QueuePause {
	source: QueuePauseSource;
	reason: string;
	/** When the pause began (ISO UTC). */
	since: string;
	/** When it is expected to end, when that is known (the quota day's midnight Pacific). */
	until?: string;
	/** The operator's words for guests, when they gave some (maintenance.guestNote). */
	guestNote?: string;
}

export async function readQueuePause(db: Db, clock: Clock): Promise<QueuePause | null> {
	const maintenance = await readMaintenance(db);
	if (maintenance)
		return {
			source: maintenance.source,
			reason: maintenance.reason,
			since: maintenance.at || clock.now().toISOString(),
			...(maintenance.guestNote ? { guestNote: maintenance.guestNote } : {})
		};
	// An unreadable pause is treated as over: the provider will say again if the quota is still out.
	const pause = await readJsonSetting(db, PAUSE_KEY, quotaPauseSchema);
	if (pause && Date.parse(pause.until) > clock.now().getTime())
		return {
			source: 'quota_day',
			reason: pause.reason,
			since: pause.since ?? clock.now().toISOString(),
			until: pause.until
		};
	const hold = await readJsonSetting(db, HOLD_KEY, quotaPauseSchema);
	if (hold && Date.parse(hold.until) > clock.now().getTime())
		return {
			source: 'quota_minute',
			reason: hold.reason,
			since: hold.since ?? clock.now().toISOString(),
			until: hold.until
		};
	return null;
}

/** What the kiosk is told of a pause (the hello and its live stream say the same). */
export function kioskPauseView(pause: QueuePause | null): KioskPauseView {
	return { paused: pause !== null, pausedUntil: pause?.until ?? null, pauseNote: pause?.guestNote ?? null };
}

/** The pause the kiosk shows: any but the per-minute quota's hold, which only delays jobs by seconds. */
export async function readKioskPause(db: Db, clock: Clock): Promise<QueuePause | null> {
	const pause = await readQueuePause(db, clock);
	return pause?.source === 'quota_minute' ? null : pause;
}

/**
 * Holds the queue until `until` for the provider's per-minute quota (its RetryInfo delay). A hold
 * still on keeps its `since` and only ever moves its end later, so a storm of 429s is one pause
 * from its first answer to its last delay, whichever slot or worker heard each.
 */
export async function holdForQuotaMinute(db: Db, clock: Clock, until: Date, reason: string): Promise<QueuePause> {
	const now = clock.now();
	const current = await readJsonSetting(db, HOLD_KEY, quotaPauseSchema);
	const running = current && Date.parse(current.until) > now.getTime();
	const since = running ? (current.since ?? now.toISOString()) : now.toISOString();
	const end = running && Date.parse(current.until) > until.getTime() ? current.until : until.toISOString();
	const hold = { since, until: end, reason: reason.slice(0, 500) };
	await writeSetting(db, clock, HOLD_KEY, JSON.stringify(hold));
	return { source: 'quota_minute', ...hold };
}

/** Returns false when a pause until the same time was already recorded (operators were told then). */
export async function pauseForQuotaDay(db: Db, clock: Clock, until: Date, reason: string): Promise<boolean> {
	const raw = await readSetting(db, PAUSE_KEY);
	const untilIso = until.toISOString();
	if (raw && raw.includes(untilIso)) return false;
	await writeSetting(
		db,
		clock,
		PAUSE_KEY,
		JSON.stringify({ since: clock.now().toISOString(), until: untilIso, reason: reason.slice(0, 500) })
	);
	return true;
}
