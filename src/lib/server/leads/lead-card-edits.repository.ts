import type { Db, Tx } from '../db/client.ts';
import { claimRowWithLease } from '../db/dialect/row-locks.ts';
import { Prisma } from '../db/generated/client.ts';

/**
 * Cards that must be re-rendered in the sales group (lead_card_edits). Anyone may ask — the
 * console in the web process, a button press, an erasure — inside the transaction that changed
 * the lead, so the request is never lost; only the worker talks to Telegram and clears it.
 */
export async function requestCardEdit(tx: Db | Tx, leadId: number, now: Date): Promise<void> {
	const requestedAt = now.toISOString();
	await tx.leadCardEdit.upsert({
		where: { leadId },
		create: { leadId, requestedAt },
		// A new change makes the row due at once, even while an older edit is claimed.
		update: { requestedAt, nextAttemptAt: null, attempts: 0, lastError: null }
	});
}

export interface ClaimedCardEdit {
	leadId: number;
	requestedAt: string;
	attempts: number;
}

/**
 * The oldest due edit (or this lead's, if due), its lease pushed ahead. Picked with pickRowToClaim,
 * as the other outboxes: of two workers claiming at once on PostgreSQL each gets a different edit.
 */
export async function claimCardEdit(
	db: Db,
	now: Date,
	leaseMs: number,
	leadId?: number
): Promise<ClaimedCardEdit | null> {
	const ofLead = leadId === undefined ? Prisma.empty : Prisma.sql`AND e.lead_id = ${leadId}`;
	const due = Prisma.sql`(e.next_attempt_at IS NULL OR e.next_attempt_at <= ${now.toISOString()}) ${ofLead}`;
	const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
	const row = {
		table: 'lead_card_edits',
		alias: 'e',
		idColumn: 'lead_id',
		due,
		orderBy: 'e.requested_at, e.lead_id',
		leaseColumn: 'next_attempt_at',
		leaseUntil
	};
	return claimRowWithLease(db, row, (tx, id) =>
		tx.leadCardEdit.findUnique({ where: { leadId: id }, select: { leadId: true, requestedAt: true, attempts: true } })
	);
}

/** Done — unless the lead changed again meanwhile (then the newer request stays). */
export async function completeCardEdit(db: Db, claimed: ClaimedCardEdit): Promise<void> {
	await db.leadCardEdit.deleteMany({ where: { leadId: claimed.leadId, requestedAt: claimed.requestedAt } });
}

export async function postponeCardEdit(
	db: Db,
	claimed: ClaimedCardEdit,
	retryAt: Date,
	error: string | null,
	failed: boolean
): Promise<void> {
	await db.leadCardEdit.updateMany({
		where: { leadId: claimed.leadId, requestedAt: claimed.requestedAt },
		data: {
			nextAttemptAt: retryAt.toISOString(),
			lastError: error?.slice(0, 300) ?? null,
			...(failed ? { attempts: { increment: 1 } } : {})
		}
	});
}
