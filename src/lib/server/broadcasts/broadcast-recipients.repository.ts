import type { Db, Tx } from '../db/client.ts';
import { claimRowWithLease } from '../db/dialect/row-locks.ts';
import { Prisma, type Broadcast, type BroadcastRecipient } from '../db/generated/client.ts';
import { RECIPIENT_REASON } from './recipient-reasons.ts';

/**
 * The per-recipient outbox (broadcast_recipients). A row is claimed before its Telegram call by
 * pushing next_attempt_at one lease ahead: another pass (or a second worker) skips it, and if this
 * process dies the row is due again when the lease runs out. Every record is conditional on the
 * row still being queued, so a late answer never overwrites a cancel or an opt-out.
 */
export type ClaimedRecipient = BroadcastRecipient & { broadcast: Broadcast };

/** The oldest due row of a sending broadcast, or any due test send; null when nothing is due. */
export async function claimNextRecipient(db: Db, now: Date, leaseMs: number): Promise<ClaimedRecipient | null> {
	const nowIso = now.toISOString();
	const due = Prisma.sql`r.state = 'queued' AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ${nowIso})
		AND (r.test = TRUE OR EXISTS (SELECT 1 FROM broadcasts b WHERE b.id = r.broadcast_id AND b.state = 'sending'))`;
	const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
	return claimRowWithLease(
		db,
		{
			table: 'broadcast_recipients',
			alias: 'r',
			due,
			orderBy: 'r.test DESC, r.id',
			leaseColumn: 'next_attempt_at',
			leaseUntil
		},
		(tx, id) => tx.broadcastRecipient.findUnique({ where: { id }, include: { broadcast: true } })
	);
}

const stillQueued = (id: number) => ({ id, state: 'queued' });

export async function recordRecipientSent(db: Db, nowIso: string, id: number, messageId: bigint): Promise<void> {
	await db.broadcastRecipient.updateMany({
		where: stillQueued(id),
		data: { state: 'sent', messageId, sentAt: nowIso, nextAttemptAt: null, error: null, updatedAt: nowIso }
	});
}

/**
 * A failure to retry at `retryAt`, or (retryAt null) the last word: failed with its reason.
 * Flood control (countsAsAttempt false) only postpones: it says nothing about this guest.
 */
export async function recordRecipientFailure(
	db: Db,
	nowIso: string,
	id: number,
	error: string,
	retryAt: Date | null,
	countsAsAttempt = true
): Promise<void> {
	await db.broadcastRecipient.updateMany({
		where: stillQueued(id),
		data: {
			state: retryAt ? 'queued' : 'failed',
			attempts: { increment: countsAsAttempt ? 1 : 0 },
			nextAttemptAt: retryAt?.toISOString() ?? null,
			error: error.slice(0, 300),
			updatedAt: nowIso
		}
	});
}

/** Ends a row without a call (blocked, opted out, no longer a guest) or after a 403 (blocked). */
export async function closeRecipient(
	db: Db | Tx,
	nowIso: string,
	id: number,
	state: 'blocked' | 'skipped',
	reason: string
): Promise<void> {
	await db.broadcastRecipient.updateMany({
		where: stillQueued(id),
		data: { state, error: reason, nextAttemptAt: null, updatedAt: nowIso }
	});
}

/** Opt-out takes effect at once: the guest's rows still queued in any broadcast are skipped. */
export async function skipQueuedForGuest(db: Db | Tx, nowIso: string, telegramUserId: bigint): Promise<number> {
	const { count } = await db.broadcastRecipient.updateMany({
		where: { telegramUserId, test: false, state: 'queued' },
		data: { state: 'skipped', error: RECIPIENT_REASON.optedOut, nextAttemptAt: null, updatedAt: nowIso }
	});
	return count;
}

/** A test send to the operator's own chat; pressing it again sends it again. */
export async function queueTestSend(
	db: Db | Tx,
	nowIso: string,
	broadcastId: number,
	telegramUserId: bigint
): Promise<void> {
	const fresh = {
		state: 'queued',
		attempts: 0,
		nextAttemptAt: null,
		error: null,
		messageId: null,
		sentAt: null,
		updatedAt: nowIso
	};
	await db.broadcastRecipient.upsert({
		where: { broadcastId_telegramUserId_test: { broadcastId, telegramUserId, test: true } },
		create: { broadcastId, telegramUserId, test: true, ...fresh },
		update: fresh
	});
}

export function findTestSend(db: Db | Tx, broadcastId: number): Promise<BroadcastRecipient | null> {
	return db.broadcastRecipient.findFirst({ where: { broadcastId, test: true }, orderBy: { updatedAt: 'desc' } });
}
