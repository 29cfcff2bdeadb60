import type { Db, Tx } from '../db/client.ts';
import { claimRowWithLease } from '../db/dialect/row-locks.ts';
import { Prisma, type Lead, type LeadRepeat } from '../db/generated/client.ts';

/**
 * The publication outbox (leads.published_at empty = still to post) and the repeat outbox
 * (lead_repeats.notified_at empty). A row is claimed before its Telegram call by pushing its
 * next_*_at one lease ahead: another pass (or a second worker) skips it, and if this process dies
 * the row becomes due again when the lease runs out — nothing is lost.
 */

/** Claims the oldest lead due for publication; null when the outbox is empty. */
export async function claimLeadToPublish(db: Db, now: Date, leaseMs: number): Promise<Lead | null> {
	const due = Prisma.sql`l.published_at IS NULL AND (l.next_publish_at IS NULL OR l.next_publish_at <= ${now.toISOString()})`;
	const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
	return claimRowWithLease(
		db,
		{ table: 'leads', alias: 'l', due, orderBy: 'l.id', leaseColumn: 'next_publish_at', leaseUntil },
		(tx, id) => tx.lead.findUnique({ where: { id } })
	);
}

/**
 * The card is in the group: record where, at once. Repeats that arrived before the card are
 * shown on it, so they are marked absorbed instead of pinging separately.
 */
export async function recordLeadPublished(
	db: Db,
	now: Date,
	leadId: number,
	chatId: bigint,
	messageId: bigint
): Promise<void> {
	const at = now.toISOString();
	await db.$transaction(async (tx) => {
		await tx.lead.updateMany({
			where: { id: leadId, publishedAt: null },
			data: { publishedAt: at, chatId, messageId, nextPublishAt: null, publishError: null }
		});
		await tx.leadRepeat.updateMany({
			where: { leadId, notifiedAt: null, at: { lte: at } },
			data: { notifiedAt: at, notifyError: 'absorbed: the card was posted with this repeat on it' }
		});
	});
}

/** Back off until `retryAt`; `countsAsAttempt` false: no call was made (the group was cooling down). */
export async function recordLeadPublishFailure(
	db: Db,
	leadId: number,
	error: string,
	retryAt: Date,
	countsAsAttempt = true
): Promise<void> {
	await db.lead.updateMany({
		where: { id: leadId, publishedAt: null },
		data: {
			publishAttempts: { increment: countsAsAttempt ? 1 : 0 },
			nextPublishAt: retryAt.toISOString(),
			publishError: error.slice(0, 300)
		}
	});
}

export type RepeatWithLead = LeadRepeat & { lead: Lead };

/** Claims the oldest repeat whose lead's card exists (earlier ones are absorbed at publication). */
export async function claimRepeatToNotify(db: Db, now: Date, leaseMs: number): Promise<RepeatWithLead | null> {
	const due = Prisma.sql`r.notified_at IS NULL AND (r.next_notify_at IS NULL OR r.next_notify_at <= ${now.toISOString()})
		AND EXISTS (SELECT 1 FROM leads l WHERE l.id = r.lead_id AND l.published_at IS NOT NULL)`;
	const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
	return claimRowWithLease(
		db,
		{ table: 'lead_repeats', alias: 'r', due, orderBy: 'r.id', leaseColumn: 'next_notify_at', leaseUntil },
		(tx, id) => tx.leadRepeat.findUnique({ where: { id }, include: { lead: true } })
	);
}

/** The repeat is done; `pingMessageId` is where its ping sits in the group (an erasure edits it). */
export async function recordRepeatNotified(
	tx: Db | Tx,
	repeatId: number,
	now: Date,
	note: string | null = null,
	pingMessageId: bigint | null = null
): Promise<void> {
	await tx.leadRepeat.updateMany({
		where: { id: repeatId, notifiedAt: null },
		data: {
			notifiedAt: now.toISOString(),
			nextNotifyAt: null,
			notifyError: note,
			...(pingMessageId === null ? {} : { pingMessageId })
		}
	});
}

/** Pings of a lead still showing the repeat's details in the group (an erasure must edit them). */
export async function findPingsToScrub(db: Db, leadId: number): Promise<{ id: number; pingMessageId: bigint }[]> {
	const rows = await db.leadRepeat.findMany({
		where: { leadId, pingMessageId: { not: null } },
		select: { id: true, pingMessageId: true },
		orderBy: { id: 'asc' }
	});
	return rows.map((row) => ({ id: row.id, pingMessageId: row.pingMessageId as bigint }));
}

/** The ping no longer shows anything (edited to the erased text, or gone from the group). */
export async function recordPingScrubbed(db: Db, repeatId: number): Promise<void> {
	await db.leadRepeat.updateMany({ where: { id: repeatId }, data: { pingMessageId: null } });
}

/** Back off until `retryAt`; `countsAsAttempt` false: no call was made (the group was cooling down). */
export async function recordRepeatFailure(
	db: Db,
	repeatId: number,
	error: string,
	retryAt: Date,
	countsAsAttempt = true
): Promise<void> {
	await db.leadRepeat.updateMany({
		where: { id: repeatId, notifiedAt: null },
		data: {
			notifyAttempts: { increment: countsAsAttempt ? 1 : 0 },
			nextNotifyAt: retryAt.toISOString(),
			notifyError: error.slice(0, 300)
		}
	});
}

export async function countRepeats(tx: Db | Tx, leadId: number): Promise<{ count: number; lastAt: string | null }> {
	const [count, last] = await Promise.all([
		tx.leadRepeat.count({ where: { leadId } }),
		tx.leadRepeat.findFirst({ where: { leadId }, orderBy: { at: 'desc' }, select: { at: true } })
	]);
	return { count, lastAt: last?.at ?? null };
}
