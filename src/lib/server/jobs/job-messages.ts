import type { Db, Tx } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import type { Clock } from '../time/clock.ts';

/**
 * `job_messages`: the bot's messages about a job that someone edits later. kind "generating" is
 * the "Generating…" message the worker sends when a job appears; the generation worker edits it
 * with stage progress. One row per (job, kind): a message is never sent twice for the same kind.
 */
export type JobMessageKind = 'generating';

export interface JobMessageRow {
	jobId: number;
	kind: string;
	chatId: bigint;
	/** 0 when the guest could not be written to (blocked the bot): nothing to edit. */
	messageId: bigint;
	sentAt: string;
}

export function findJobMessage(db: Db | Tx, jobId: number, kind: JobMessageKind): Promise<JobMessageRow | null> {
	return db.jobMessage.findUnique({ where: { jobId_kind: { jobId, kind } } });
}

export async function recordJobMessage(db: Db | Tx, clock: Clock, row: { jobId: number; kind: JobMessageKind; chatId: bigint; messageId: bigint }): Promise<void> {
	const sentAt = clock.now().toISOString();
	await db.jobMessage.upsert({
		where: { jobId_kind: { jobId: row.jobId, kind: row.kind } },
		create: { ...row, sentAt },
		update: { chatId: row.chatId, messageId: row.messageId, sentAt }
	});
}

export interface JobNeedingNotice {
	jobId: number;
	telegramUserId: bigint;
	createdAt: string;
}

/**
 * Jobs created since `since` that have no message of this kind yet. Raw SQL: an anti-join Prisma
 * cannot express without a relation between the tables; it runs every ~500 ms and uses
 * idx_jobs_status plus job_messages' primary key.
 */
export async function listJobsWithoutMessage(db: Db, kind: JobMessageKind, since: string, limit = 20): Promise<JobNeedingNotice[]> {
	const rows = await db.$queryRaw<{ job_id: number | bigint; telegram_user_id: bigint | number; created_at: string }[]>`
		SELECT j.job_id, j.telegram_user_id, j.created_at FROM jobs j
		WHERE j.status IN (${Prisma.join([...ACTIVE_JOB_STATUSES])}) AND j.created_at >= ${since}
		AND NOT EXISTS (SELECT 1 FROM job_messages m WHERE m.job_id = j.job_id AND m.kind = ${kind})
		ORDER BY j.job_id LIMIT ${limit}`;
	return rows.map((r) => ({ jobId: Number(r.job_id), telegramUserId: BigInt(r.telegram_user_id), createdAt: r.created_at }));
}
