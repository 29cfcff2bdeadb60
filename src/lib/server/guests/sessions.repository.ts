import type { Db, Tx } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { transitionStatus, type TransitionResult } from '../db/transition.ts';
import type { ClosedReason, OpenStatus, SessionNotice, SessionStatus } from '../../schemas/kiosk.ts';
import { OPEN_STATUSES } from '../../schemas/kiosk.ts';
import type { SqlRunner } from '../lifecycle/sql-runner.ts';

/**
 * The `sessions` rows: the one module that writes them. Every status change is conditional
 * (transitionStatus), so of two racing actors exactly one moves a session; the only other writes
 * are the data lifecycle's deletes (unlinked sessions after a day, a guest's erasure).
 */
export interface SessionRow {
	sessionToken: string;
	telegramUserId: bigint | null;
	templateId: string | null;
	status: string;
	notice: string | null;
	closedReason: string | null;
	createdAt: string;
	updatedAt: string;
}

export function findSession(db: Db | Tx, sessionToken: string): Promise<SessionRow | null> {
	return db.session.findUnique({ where: { sessionToken } });
}

/**
 * The session for a step that reads it and then moves it: its row stays locked until the
 * transaction ends, so two racing steps on one session (two guests scanning one QR, two uploads)
 * are decided one after the other and the second sees the first's result. SQLite's BEGIN IMMEDIATE
 * already holds the file's write lock; on PostgreSQL (READ COMMITTED) this is a row lock.
 */
export async function findSessionForUpdate(tx: Tx, sessionToken: string): Promise<SessionRow | null> {
	await lockRows(tx, 'sessions', 'session_token', [sessionToken]);
	return findSession(tx, sessionToken);
}

export async function insertIdleSession(tx: Tx, sessionToken: string, now: string): Promise<void> {
	await tx.session.create({ data: { sessionToken, status: 'idle', createdAt: now, updatedAt: now } });
}

/**
 * Moves a session on only if it is still in `from` — and, with `stillOpenSince`, only if it has
 * reached its deadline (so a guest's late tap cannot beat the clock): updated_at must be after
 * `stillOpenSince`, the same boundary the timeout sweep closes at.
 */
export function advanceSession(
	db: Db | Tx,
	sessionToken: string,
	from: SessionStatus | readonly SessionStatus[],
	to: SessionStatus,
	data: Record<string, unknown>,
	stillOpenSince?: string
): Promise<TransitionResult<SessionStatus>> {
	const where = stillOpenSince ? { sessionToken, updatedAt: { gt: stillOpenSince } } : { sessionToken };
	return transitionStatus(db.session, where, from, to, data);
}

/** Closes a session that is still open (`from` narrows which open states qualify). */
export function closeSession(
	db: Db | Tx,
	sessionToken: string,
	reason: ClosedReason,
	now: string,
	from: readonly OpenStatus[] = OPEN_STATUSES
): Promise<TransitionResult<SessionStatus>> {
	return transitionStatus(db.session, { sessionToken }, from, 'expired', { closedReason: reason, updatedAt: now });
}

/** Closes a session the clock ran out on, unless something moved it on in the meantime. */
export async function closeOverdueSession(
	db: Db | Tx,
	session: { sessionToken: string; status: OpenStatus },
	reason: ClosedReason,
	deadlineBefore: string,
	now: string
): Promise<boolean> {
	const where = { sessionToken: session.sessionToken, updatedAt: { lte: deadlineBefore } };
	return (
		await transitionStatus(db.session, where, session.status, 'expired', { closedReason: reason, updatedAt: now })
	).won;
}

/** A session the pack limit refused: closed at once, with the guest recorded and the notice why. */
export function closeWithNotice(
	tx: Tx,
	sessionToken: string,
	telegramUserId: bigint,
	notice: SessionNotice,
	now: string,
	from: OpenStatus = 'idle'
): Promise<TransitionResult<SessionStatus>> {
	return transitionStatus(tx.session, { sessionToken }, from, 'expired', { telegramUserId, notice, updatedAt: now });
}

/** Open sessions whose last step is at or before `before` (their deadline has come). */
export function listStillSessions(
	db: Db,
	status: OpenStatus | readonly OpenStatus[],
	before: string,
	limit = 200
): Promise<SessionRow[]> {
	const statuses = typeof status === 'string' ? [status] : [...status];
	return db.session.findMany({
		where: { status: { in: statuses }, updatedAt: { lte: before } },
		take: limit,
		orderBy: { updatedAt: 'asc' }
	});
}

export function listOpenSessionsOfGuest(db: Db | Tx, telegramUserId: bigint): Promise<SessionRow[]> {
	return db.session.findMany({ where: { telegramUserId, status: { in: [...OPEN_STATUSES] } } });
}

/** Sessions no guest ever linked (the QR was never scanned), started before `createdBefore`. */
export async function listUnlinkedSessionTokens(db: Db | Tx, createdBefore: string): Promise<string[]> {
	const rows = await db.session.findMany({
		where: { telegramUserId: null, createdAt: { lt: createdBefore } },
		select: { sessionToken: true }
	});
	return rows.map((row) => row.sessionToken);
}

/** Deletes those of `tokens` that are still unlinked (a guest may have scanned one meanwhile). */
export async function deleteStillUnlinkedSessions(tx: Tx, tokens: readonly string[]): Promise<number> {
	const { count } = await tx.session.deleteMany({ where: { sessionToken: { in: [...tokens] }, telegramUserId: null } });
	return count;
}

/**
 * A guest's sessions, for the erasures (/forget, retention, reset): raw SQL through SqlRunner because
 * the same statement also runs on a restored backup file, before any process has opened it.
 */
export function deleteGuestSessions(sql: SqlRunner, telegramUserId: bigint): Promise<number> {
	return sql.run(`DELETE FROM sessions WHERE telegram_user_id = ?`, [telegramUserId]);
}
