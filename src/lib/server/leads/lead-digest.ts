import { LEAD_STATUSES, type LeadStatus } from '../../schemas/lead-status.ts';
import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { deleteSetting, readSetting, writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { shiftDate } from '../time/zoned-day.ts';
import { tashkentMidnight, tashkentWallClock } from './tashkent-time.ts';

/**
 * The daily digest: once per Tashkent date, from DIGEST_HOUR Tashkent time, about the day
 * before. settings.stickers_digest_last holds the Tashkent date of the last digest; it is
 * claimed in a BEGIN IMMEDIATE transaction before sending (so a restart or a second pass never
 * sends the same day twice) and given back if sending fails (so the next pass retries).
 */
export const DIGEST_SETTING = 'stickers_digest_last';
export const DIGEST_HOUR = 9;

export interface DigestClaim {
	date: string;
	previous: string | null;
}

export async function claimDigest(deps: { db: Db; clock: Clock }): Promise<DigestClaim | null> {
	const now = deps.clock.now();
	const wall = tashkentWallClock(now);
	if (wall.hour < DIGEST_HOUR) return null;
	return deps.db.$transaction(async (tx) => {
		await lockRows(tx, 'settings', 'key', [DIGEST_SETTING]);
		const previous = await readSetting(tx, DIGEST_SETTING);
		if (previous === wall.date) return null;
		await writeSetting(tx, deps.clock, DIGEST_SETTING, wall.date);
		return { date: wall.date, previous };
	});
}

export async function releaseDigest(deps: { db: Db; clock: Clock }, claim: DigestClaim): Promise<void> {
	await deps.db.$transaction(async (tx) => {
		await lockRows(tx, 'settings', 'key', [DIGEST_SETTING]);
		if ((await readSetting(tx, DIGEST_SETTING)) !== claim.date) return;
		if (claim.previous === null) await deleteSetting(tx, DIGEST_SETTING);
		else await writeSetting(tx, deps.clock, DIGEST_SETTING, claim.previous);
	});
}

export interface DigestFigures {
	/** The Tashkent date the figures describe (the day before the digest). */
	day: string;
	newLeads: number;
	repeats: number;
	changes: Partial<Record<LeadStatus, number>>;
	open: Partial<Record<LeadStatus, number>>;
	withoutStatus: number;
}

export async function readDigestFigures(db: Db, digestDate: string): Promise<DigestFigures> {
	const day = shiftDate(digestDate, -1);
	const from = tashkentMidnight(day).toISOString();
	const to = tashkentMidnight(digestDate).toISOString();
	const [newLeads, repeats, changes, open, withoutStatus] = await Promise.all([
		db.lead.count({ where: { createdAt: { gte: from, lt: to } } }),
		db.leadRepeat.count({ where: { at: { gte: from, lt: to } } }),
		db.leadStatusHistory.groupBy({ by: ['status'], where: { at: { gte: from, lt: to } }, _count: { _all: true } }),
		db.lead.groupBy({
			by: ['status'],
			where: { status: { in: ['new', 'in_work', 'contacted'] } },
			_count: { _all: true }
		}),
		db.lead.count({ where: { statusAt: null, erasedAt: null } })
	]);
	return { day, newLeads, repeats, changes: countsByStatus(changes), open: countsByStatus(open), withoutStatus };
}

function countsByStatus(rows: { status: string; _count: { _all: number } }[]): Partial<Record<LeadStatus, number>> {
	const counts: Partial<Record<LeadStatus, number>> = {};
	for (const status of LEAD_STATUSES) {
		const row = rows.find((r) => r.status === status);
		if (row) counts[status] = row._count._all;
	}
	return counts;
}
