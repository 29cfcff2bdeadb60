import type { Db } from '../db/client.ts';
import type { Lead } from '../db/generated/client.ts';
import { HOUR } from '../time/clock.ts';

/**
 * One ping per lead that nobody has given a status for over 2 hours (leads.reminded_at).
 * The reminder is claimed (reminded_at set) before it is sent and released if sending fails, so
 * two passes never ping twice; a crash between claim and send loses that one ping — a missed
 * nudge is better than pinging the group twice.
 */
export const REMINDER_AFTER_MS = 2 * HOUR;

export async function findLeadsToRemind(db: Db, now: Date): Promise<Lead[]> {
	const cut = new Date(now.getTime() - REMINDER_AFTER_MS).toISOString();
	return db.lead.findMany({
		where: { statusAt: null, remindedAt: null, erasedAt: null, publishedAt: { not: null }, createdAt: { lt: cut } },
		orderBy: { id: 'asc' },
		take: 20
	});
}

export async function claimReminder(db: Db, leadId: number, now: Date): Promise<boolean> {
	const { count } = await db.lead.updateMany({
		where: { id: leadId, remindedAt: null, statusAt: null },
		data: { remindedAt: now.toISOString() }
	});
	return count === 1;
}

export async function releaseReminder(db: Db, leadId: number, claimedAt: Date): Promise<void> {
	await db.lead.updateMany({ where: { id: leadId, remindedAt: claimedAt.toISOString() }, data: { remindedAt: null } });
}
