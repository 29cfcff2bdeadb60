import type { Db, Tx } from '../db/client.ts';
import { pickRowToClaim } from '../db/dialect/row-locks.ts';
import { Prisma, type GuestNotice } from '../db/generated/client.ts';

/**
 * `guest_notices`, the outbox of what the worker tells a guest about a job. A notice is queued in
 * the transaction of the job change that causes it (job.repository.ts calls queueGuestNotice), so
 * a job never changes without its notice and a notice never names a change that was rolled back.
 * The sender claims a due row (state sending, claimed_until one lease ahead), calls Telegram and
 * records the outcome; a process that dies holding a claim leaves the row due again when the
 * lease runs out, so nothing is lost.
 */
/** news_question: the one question about news after a pack (broadcasts/news-question.ts). */
export const NOTICE_KINDS = ['generating', 'delay', 'failure', 'deadline', 'news_question'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_STATES = ['queued', 'sending', 'sent', 'failed', 'blocked'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];

export interface NoticeToQueue {
	kind: NoticeKind;
	/** A key of the generation texts (of the news texts for news_question); "generating" is rendered from the live queue when sent. */
	textKey: string;
	params?: Record<string, string | number>;
}

export type ClaimedNotice = GuestNotice & { claimedUntil: string };

/**
 * One row per job and kind. A job that comes round again (an operator's retry that fails once
 * more) queues its kind again: a finished row is put back to queued with the new text; a row
 * still on its way is left alone, it already says the same thing.
 */
export async function queueGuestNotice(
	tx: Tx,
	job: { jobId: number; telegramUserId: bigint },
	notice: NoticeToQueue,
	nowIso: string
): Promise<void> {
	const params = notice.params ? JSON.stringify(notice.params) : null;
	// Raw SQL: an upsert whose update applies only to finished rows, which Prisma's upsert cannot condition.
	await tx.$executeRaw`
		INSERT INTO guest_notices (job_id, telegram_user_id, kind, text_key, text_params, state, attempts, next_attempt_at, created_at)
		VALUES (${job.jobId}, ${job.telegramUserId}, ${notice.kind}, ${notice.textKey}, ${params}, 'queued', 0, ${nowIso}, ${nowIso})
		ON CONFLICT (job_id, kind) DO UPDATE SET
			text_key = excluded.text_key, text_params = excluded.text_params, state = 'queued', attempts = 0,
			next_attempt_at = excluded.next_attempt_at, claimed_until = NULL, message_id = NULL, error = NULL,
			created_at = excluded.created_at, sent_at = NULL
		WHERE guest_notices.state IN ('sent', 'failed', 'blocked')`;
}

/**
 * Claims the oldest due notice (queued and due, or sending with an expired claim: its sender
 * died), optionally only the notices of one job. The attempt is counted at the claim, so a
 * sender that dies mid-call has used one.
 */
export async function claimDueNotice(
	db: Db,
	now: Date,
	leaseMs: number,
	jobId?: number
): Promise<ClaimedNotice | null> {
	const nowIso = now.toISOString();
	const ofJob = jobId === undefined ? Prisma.empty : Prisma.sql`n.job_id = ${jobId} AND`;
	return db.$transaction(async (tx) => {
		const id = await pickRowToClaim(tx, {
			table: 'guest_notices',
			alias: 'n',
			due: Prisma.sql`${ofJob} ((n.state = 'queued' AND n.next_attempt_at <= ${nowIso}) OR (n.state = 'sending' AND n.claimed_until < ${nowIso}))`,
			orderBy: 'n.id'
		});
		const due = id === null ? null : await tx.guestNotice.findUnique({ where: { id } });
		if (!due) return null;
		const claimedUntil = new Date(now.getTime() + leaseMs).toISOString();
		await tx.guestNotice.update({
			where: { id: due.id },
			data: { state: 'sending', claimedUntil, attempts: { increment: 1 } }
		});
		return { ...due, state: 'sending', claimedUntil, attempts: due.attempts + 1 };
	});
}

/** Only the claim that holds a row may finish it: a sender frozen past its lease writes nothing. */
function heldBy(claimed: ClaimedNotice) {
	return { id: claimed.id, state: 'sending', claimedUntil: claimed.claimedUntil };
}

export async function recordNoticeSent(
	db: Db | Tx,
	claimed: ClaimedNotice,
	messageId: bigint,
	nowIso: string
): Promise<boolean> {
	const { count } = await db.guestNotice.updateMany({
		where: heldBy(claimed),
		data: { state: 'sent', messageId, sentAt: nowIso, claimedUntil: null, error: null }
	});
	return count > 0;
}

/** Given up (blocked guest, no such chat, too many attempts, or no longer worth saying). */
export async function recordNoticeEnded(
	db: Db | Tx,
	claimed: ClaimedNotice,
	state: 'failed' | 'blocked',
	error: string
): Promise<boolean> {
	const { count } = await db.guestNotice.updateMany({
		where: heldBy(claimed),
		data: { state, claimedUntil: null, error: error.slice(0, 300) }
	});
	return count > 0;
}

/** Back to the queue until `retryAt`; `refund` when no call was made (the chat was cooling down). */
export async function postponeNotice(
	db: Db,
	claimed: ClaimedNotice,
	retryAt: Date,
	error: string | null,
	refund = false
): Promise<void> {
	await db.guestNotice.updateMany({
		where: heldBy(claimed),
		data: {
			state: 'queued',
			claimedUntil: null,
			nextAttemptAt: retryAt.toISOString(),
			...(error === null ? {} : { error: error.slice(0, 300) }),
			...(refund ? { attempts: { decrement: 1 } } : {})
		}
	});
}

export interface NoticeView {
	kind: string;
	/** Which text the guest is sent (for a failure: why it failed, as jobs/run/job-failure.ts chose). */
	textKey: string;
	state: string;
	attempts: number;
	error: string | null;
	createdAt: string;
	sentAt: string | null;
}

/** A job's notices for the console, oldest first. */
export function listJobNotices(db: Db, jobId: number): Promise<NoticeView[]> {
	return db.guestNotice.findMany({
		where: { jobId },
		orderBy: { id: 'asc' },
		select: { kind: true, textKey: true, state: true, attempts: true, error: true, createdAt: true, sentAt: true }
	});
}
