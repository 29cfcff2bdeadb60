import type { Db, Tx } from '../db/client.ts';
import { updateWhileStatus } from '../db/transition.ts';
import type { Prisma } from '../db/generated/client.ts';
import {
	ACTIVE_JOB_STATUSES,
	CLAIMED_JOB_STATUSES,
	jobStatusSchema,
	type JobStatus
} from '../../schemas/job-status.ts';
import { LeaseLost } from './job-errors.ts';
import { queueGuestNotice, type NoticeToQueue } from './guest-notices.repository.ts';

/**
 * The from-status of every named step of the jobs writer (job.repository.ts, job-claims.repository.ts)
 * and the one conditional UPDATE that applies it. Only those two files import this one: nothing else
 * writes `jobs`. Of two racing callers exactly one wins; the loser learns what the row says now and
 * why it was refused.
 */
export type JobTransition = { won: true } | { won: false; current: JobStatus | null; refusal: string };

export interface Guard {
	from: readonly JobStatus[];
	/** Conditions beyond the status (a marker still unset, say). */
	where?: Prisma.JobWhereInput;
	/** The rule in words, for the refusal. */
	rule: string;
}

export const GUARDS = {
	requeue: { from: CLAIMED_JOB_STATUSES, rule: 'only a claimed (processing or delivering) job goes back to the queue' },
	failForGood: { from: CLAIMED_JOB_STATUSES, rule: 'only a claimed (processing or delivering) job fails for good' },
	failPastDeadline: {
		from: ACTIVE_JOB_STATUSES,
		where: { packCreatedAt: null },
		rule: 'only an active job without a sticker set fails at the deadline'
	},
	retry: { from: ['failed'], rule: 'only a failed job can be retried' },
	markDelivering: { from: ['processing'], rule: 'only a processing job starts delivering' },
	complete: {
		from: ['delivering'],
		where: { linkSentAt: null },
		rule: 'only a delivering job whose link is not recorded yet is completed'
	},
	draw: { from: ['processing'], rule: 'only a processing job records what it drew' },
	deliver: { from: ['delivering'], rule: 'only a delivering job records its sticker set' },
	delayNotice: {
		from: ACTIVE_JOB_STATUSES,
		where: { delayNoticeSentAt: null },
		rule: 'only an active job not told yet gets the delay notice'
	}
} as const satisfies Record<string, Guard>;

export async function guardedUpdate(
	db: Db | Tx,
	jobId: number,
	guard: Guard,
	data: Prisma.JobUpdateManyMutationInput
): Promise<JobTransition> {
	const result = await updateWhileStatus<JobStatus, Prisma.JobWhereInput>(
		db.job,
		{ ...guard.where, jobId },
		guard.from,
		data,
		{ jobId }
	);
	return result.won ? result : refused(jobId, guard, result.current ?? undefined);
}

export function refused(jobId: number, guard: Guard, status: string | undefined): JobTransition & { won: false } {
	if (status === undefined)
		return { won: false, current: null, refusal: `job ${jobId} does not exist (the guest may have been reset)` };
	const current = jobStatusSchema.parse(status);
	return { won: false, current, refusal: `job ${jobId} is ${current}: ${guard.rule}` };
}

/** A write the running job needs: when refused, this claim has lost the job and must stop. */
export async function runningWrite(
	db: Db | Tx,
	jobId: number,
	guard: Guard,
	data: Prisma.JobUpdateManyMutationInput
): Promise<void> {
	const result = await guardedUpdate(db, jobId, guard, data);
	if (!result.won) throw new LeaseLost(result.refusal);
}

/** A won transition and the notice it owes the guest, in one transaction. */
export async function transitionWithNotice(
	db: Db,
	jobId: number,
	nowIso: string,
	notice: NoticeToQueue,
	transition: (tx: Tx) => Promise<JobTransition>
): Promise<JobTransition> {
	return db.$transaction(async (tx) => {
		const result = await transition(tx);
		if (!result.won) return result;
		const job = await tx.job.findUniqueOrThrow({ where: { jobId }, select: { telegramUserId: true } });
		await queueGuestNotice(tx, { jobId, telegramUserId: job.telegramUserId }, notice, nowIso);
		return result;
	});
}
