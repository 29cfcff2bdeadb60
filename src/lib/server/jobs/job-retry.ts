import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { retryFailedJob } from './job.repository.ts';

/**
 * retry_job: an operator puts a failed job back in the queue. created_at is rewritten (it is the
 * base of every deadline, so the retry gets the full time again), attempts start from 0 and the
 * last error is cleared. Only `failed` can be retried: the conditional update makes a retry that
 * races the worker (or a second operator) lose cleanly.
 */
export async function retryJob(db: Db, clock: Clock, actor: Actor, jobId: number): Promise<void> {
	await db.$transaction(async (tx) => {
		const before = await tx.job.findUnique({
			where: { jobId },
			select: { error: true, attempts: true, telegramUserId: true, createdAt: true }
		});
		if (!before) throw new DomainError({ code: 'JobNotFound', jobId });
		const result = await retryFailedJob(tx, clock, jobId);
		if (!result.won) throw new DomainError({ code: 'JobNotRetryable', jobId, status: result.current ?? null });
		await recordAudit(tx, clock, actor, {
			action: 'retry_job',
			jobId,
			telegramUserId: before.telegramUserId,
			details: { previousError: before.error, previousAttempts: before.attempts, previousCreatedAt: before.createdAt }
		});
	});
}
