import type { Db, Tx } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import type { Clock } from '../time/clock.ts';

/**
 * `job_messages`: the bot's messages about a job that someone edits later. kind "generating" is
 * the guest's status message: the "Generating…" notice the outbox sends when a job appears, then
 * edited by the worker's status task as the job moves (place in the queue, the stages).
 * shown_text is what it says now; sent_at/edited_at pace the edits.
 */
export type JobMessageKind = 'generating';

export interface JobMessageRow {
	jobId: number;
	kind: string;
	chatId: bigint;
	/** 0 when the guest could not be written to (blocked the bot): nothing to edit. */
	messageId: bigint;
	sentAt: string;
	shownText: string | null;
	editedAt: string | null;
}

export function findJobMessage(db: Db | Tx, jobId: number, kind: JobMessageKind): Promise<JobMessageRow | null> {
	return db.jobMessage.findUnique({ where: { jobId_kind: { jobId, kind } } });
}

export async function recordJobMessage(
	db: Db | Tx,
	clock: Clock,
	row: { jobId: number; kind: JobMessageKind; chatId: bigint; messageId: bigint; shownText?: string | null }
): Promise<void> {
	const sentAt = clock.now().toISOString();
	const fields = {
		chatId: row.chatId,
		messageId: row.messageId,
		shownText: row.shownText ?? null,
		sentAt,
		editedAt: null
	};
	await db.jobMessage.upsert({
		where: { jobId_kind: { jobId: row.jobId, kind: row.kind } },
		create: { jobId: row.jobId, kind: row.kind, ...fields },
		update: fields
	});
}

/** The status message now shows `text` (an edit made, or one that changed nothing). */
export async function recordStatusShown(db: Db, clock: Clock, jobId: number, text: string): Promise<void> {
	await db.jobMessage.updateMany({
		where: { jobId, kind: 'generating' },
		data: { shownText: text, editedAt: clock.now().toISOString() }
	});
}

export interface StatusMessage {
	jobId: number;
	telegramUserId: bigint;
	chatId: bigint;
	messageId: bigint;
	/** sent_at or edited_at, whichever is later: when the guest last saw this message change. */
	touchedAt: string;
	shownText: string | null;
	status: string;
	stage: string | null;
}

/**
 * Status messages that may still change: their job is active, or finished since `finishedSince`
 * (the last edit — "ready" — is still to be shown), and their guest has not blocked the bot. Raw SQL: a join Prisma cannot express without
 * relations between these tables; it runs every second over a handful of rows.
 */
export async function listLiveStatusMessages(db: Db, finishedSince: string): Promise<StatusMessage[]> {
	const rows = await db.$queryRaw<
		{
			job_id: number | bigint;
			telegram_user_id: bigint | number;
			chat_id: bigint | number;
			message_id: bigint | number;
			sent_at: string;
			edited_at: string | null;
			shown_text: string | null;
			status: string;
			stage: string | null;
		}[]
	>`
		SELECT m.job_id, j.telegram_user_id, m.chat_id, m.message_id, m.sent_at, m.edited_at, m.shown_text, j.status, p.stage
		FROM job_messages m JOIN jobs j ON j.job_id = m.job_id LEFT JOIN job_progress p ON p.job_id = m.job_id
		WHERE m.kind = 'generating' AND m.message_id > 0
		AND NOT EXISTS (SELECT 1 FROM guest_bot_blocks b WHERE b.telegram_user_id = j.telegram_user_id)
		AND (j.status IN (${Prisma.join([...ACTIVE_JOB_STATUSES])}) OR (j.status = 'done' AND j.updated_at >= ${finishedSince}))
		ORDER BY m.job_id`;
	return rows.map((r) => ({
		jobId: Number(r.job_id),
		telegramUserId: BigInt(r.telegram_user_id),
		chatId: BigInt(r.chat_id),
		messageId: BigInt(r.message_id),
		touchedAt: r.edited_at && r.edited_at > r.sent_at ? r.edited_at : r.sent_at,
		shownText: r.shown_text,
		status: r.status,
		stage: r.stage
	}));
}
