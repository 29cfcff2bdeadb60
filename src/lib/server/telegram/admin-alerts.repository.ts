import type { Db } from '../db/client.ts';
import { claimRowWithLease } from '../db/dialect/row-locks.ts';
import { Prisma } from '../db/generated/client.ts';

/**
 * The admin alerts outbox (admin_alerts): one row per admin and alert, `queued` until sent, then
 * `sent`, `blocked` (the admin blocked the bot, or their chat does not exist) or `failed` (given up
 * after the ladder's attempts). `next_attempt_at` is the claim's lease and the retry's time.
 */
export interface ClaimedAlert {
	id: number;
	chatId: bigint;
	text: string;
	attempts: number;
	/** The lease this claim set: every record is conditional on it, so a late answer changes nothing. */
	nextAttemptAt: string | null;
}

/** How long ended alerts are kept (the console does not show them; the log has each). */
const KEEP_ENDED_DAYS = 30;

/** One queued row per admin; returns their ids, so the caller can send them at once. */
export async function queueAdminAlerts(
	db: Db,
	now: Date,
	adminIds: readonly bigint[],
	text: string
): Promise<number[]> {
	const ids: number[] = [];
	for (const chatId of adminIds) {
		const row = await db.adminAlert.create({ data: { chatId, text, createdAt: now.toISOString() } });
		ids.push(row.id);
	}
	return ids;
}

/** The oldest due alert (one of `ids` when given), its lease pushed ahead; null when none is due. */
export async function claimAdminAlert(
	db: Db,
	now: Date,
	leaseMs: number,
	ids?: readonly number[]
): Promise<ClaimedAlert | null> {
	if (ids !== undefined && ids.length === 0) return null;
	const only = ids === undefined ? Prisma.empty : Prisma.sql`AND a.id IN (${Prisma.join([...ids])})`;
	const due = Prisma.sql`a.state = 'queued' AND (a.next_attempt_at IS NULL OR a.next_attempt_at <= ${now.toISOString()}) ${only}`;
	const row = {
		table: 'admin_alerts',
		alias: 'a',
		due,
		orderBy: 'a.id',
		leaseColumn: 'next_attempt_at',
		leaseUntil: new Date(now.getTime() + leaseMs).toISOString()
	};
	return claimRowWithLease(db, row, (tx, id) =>
		tx.adminAlert.findUnique({
			where: { id },
			select: { id: true, chatId: true, text: true, attempts: true, nextAttemptAt: true }
		})
	);
}

function held(alert: ClaimedAlert) {
	return { id: alert.id, state: 'queued', nextAttemptAt: alert.nextAttemptAt };
}

export async function recordAlertSent(db: Db, alert: ClaimedAlert, now: Date, messageId: bigint): Promise<void> {
	await db.adminAlert.updateMany({
		where: held(alert),
		data: { state: 'sent', sentAt: now.toISOString(), messageId, attempts: alert.attempts + 1, error: null }
	});
}

export async function postponeAlert(
	db: Db,
	alert: ClaimedAlert,
	retryAt: Date,
	error: string | null,
	countsAsAttempt: boolean
): Promise<void> {
	await db.adminAlert.updateMany({
		where: held(alert),
		data: {
			nextAttemptAt: retryAt.toISOString(),
			attempts: alert.attempts + (countsAsAttempt ? 1 : 0),
			...(error === null ? {} : { error: error.slice(0, 300) })
		}
	});
}

export async function endAlert(
	db: Db,
	alert: ClaimedAlert,
	state: 'blocked' | 'failed',
	reason: string,
	called: boolean
): Promise<void> {
	await db.adminAlert.updateMany({
		where: held(alert),
		data: { state, error: reason.slice(0, 300), attempts: alert.attempts + (called ? 1 : 0) }
	});
}

/** Ended alerts past KEEP_ENDED_DAYS are removed (queued ones stay until they end). */
export async function pruneEndedAlerts(db: Db, now: Date): Promise<void> {
	const before = new Date(now.getTime() - KEEP_ENDED_DAYS * 24 * 60 * 60 * 1000).toISOString();
	await db.adminAlert.deleteMany({ where: { state: { not: 'queued' }, createdAt: { lt: before } } });
}
