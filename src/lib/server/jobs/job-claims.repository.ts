import type { Db } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import type { Clock } from '../time/clock.ts';
import { CLAIMED_JOB_STATUSES } from '../../schemas/job-status.ts';
import { queueGuestNotice } from './guest-notices.repository.ts';
import { GUARDS, guardedUpdate } from './job-guards.ts';
import { sqlList } from './job.repository.ts';
import { knownDeadLaunches, type GoneLaunch } from '../workers/worker-registry.ts';

/**
 * The claimed half of the jobs writer: a worker's claim of the oldest queued job, its lease (the
 * heartbeat and the release) and the sweep that puts back the jobs of a worker that died. The named
 * steps of a job's life are in job.repository.ts; both go through job-guards.ts.
 */

export interface ClaimedJob {
	jobId: number;
	attempts: number;
	/** Names this claim: a lease belongs to one claim, not to a worker (see renewLease). */
	claimedAt: string;
}

/**
 * One claim's hold on a job. Two slots of the same worker can hold the same job one after the
 * other (a frozen slot's lease expired and the job was claimed again): matching the claim time
 * stops the old slot from renewing or releasing the new slot's lease.
 */
export type LeaseRef = Pick<ClaimedJob, 'jobId' | 'claimedAt'> & { workerId: string };

/**
 * queued → processing for the oldest queued job whose backoff has passed. Raw SQL because it must be
 * one atomic statement, `UPDATE … WHERE job_id = (oldest queued) AND status = 'queued'`: of N
 * slots racing, exactly one gets a given job. It runs in one transaction together with the lease
 * row, so no job is ever `processing` without a lease. On PostgreSQL the pick skips jobs another
 * worker is claiming (their rows are locked) instead of all racing for the same oldest one.
 */
export async function claimNextJob(
	db: Db,
	clock: Clock,
	workerId: string,
	leaseMs: number
): Promise<ClaimedJob | null> {
	const now = clock.now();
	const nowIso = now.toISOString();
	const { numberParams, claimLock } = dialectOf(db);
	return db.$transaction(async (tx) => {
		const rows = await tx.$queryRawUnsafe<{ job_id: number; attempts: number }[]>(
			numberParams(`UPDATE jobs SET status = 'processing', attempts = attempts + 1, updated_at = ?
			 WHERE job_id = (
			   SELECT j.job_id FROM jobs j LEFT JOIN job_progress p ON p.job_id = j.job_id
			   WHERE j.status = 'queued' AND (p.not_before IS NULL OR p.not_before <= ?)
			   ORDER BY j.created_at, j.job_id LIMIT 1 ${claimLock('j')}
			 ) AND status = 'queued'
			 RETURNING job_id, attempts`),
			nowIso,
			nowIso
		);
		const row = rows[0];
		if (!row) return null;
		const jobId = Number(row.job_id);
		const lease = {
			workerId,
			claimedAt: nowIso,
			heartbeatAt: nowIso,
			leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString()
		};
		await tx.jobLease.upsert({ where: { jobId }, create: { jobId, ...lease }, update: lease });
		return { jobId, attempts: Number(row.attempts), claimedAt: nowIso };
	});
}

/** Is a claim possible right now? The cheap indexed check the loop polls (idx_jobs_status). */
export async function hasQueuedJob(db: Db): Promise<boolean> {
	return (await db.job.findFirst({ where: { status: 'queued' }, select: { jobId: true } })) !== null;
}

/** The heartbeat: extends the lease; false when this claim no longer holds it or the job is no longer claimed. */
export async function renewLease(db: Db, clock: Clock, lease: LeaseRef, leaseMs: number): Promise<boolean> {
	const now = clock.now();
	const { jobId, workerId, claimedAt } = lease;
	const { count } = await db.jobLease.updateMany({
		where: { jobId, workerId, claimedAt },
		data: { heartbeatAt: now.toISOString(), leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString() }
	});
	if (count === 0) return false;
	const job = await db.job.findUnique({ where: { jobId }, select: { status: true } });
	return (CLAIMED_JOB_STATUSES as readonly string[]).includes(job?.status ?? '');
}

export async function releaseLease(db: Db, lease: LeaseRef): Promise<void> {
	await db.jobLease.deleteMany({ where: { jobId: lease.jobId, workerId: lease.workerId, claimedAt: lease.claimedAt } });
}

/** What the sweep did with the jobs whose worker died: put back in the queue, or failed at the cap. */
export interface AbandonedJobs {
	requeued: number[];
	failed: number[];
}

/**
 * processing|delivering → queued for jobs whose worker died: an expired lease (or none at all), or
 * a lease held by one of `deadWorkers` — launches the registry knows dead (deadLeaseHolders), whose
 * jobs need not wait out their lease. Runs at start-up and periodically. `except` are the caller's
 * own running jobs: a worker frozen past its lease (GC, swap) must not requeue work it is still doing.
 *
 * A claim that never finished counted as an attempt when it was made (claimNextJob): a job whose
 * last allowed claim (`maxAttempts`) died with its worker is not put back but fails for good, the
 * guest told, like any other failure at the cap. Without that, a job that kills its worker every
 * time (a poison pill) would be claimed again and again until the hard deadline, and on a fleet
 * take the workers down one after another. A graceful stop never gets here: it requeues its job
 * with the attempt refunded (WorkerShutdown).
 */
export async function requeueAbandonedJobs(
	db: Db,
	clock: Clock,
	options: { except?: Iterable<number>; maxAttempts: number; deadWorkers?: readonly string[] }
): Promise<AbandonedJobs> {
	const nowIso = clock.now().toISOString();
	const own = new Set(options.except ?? []);
	const dead = options.deadWorkers ?? [];
	// The holder is matched inside the locked read: a job claimed again by a live worker since the
	// caller asked the registry has that worker's id on its lease and is left alone.
	const deadHolder = dead.length === 0 ? '' : ` OR l.worker_id IN (${dead.map(() => '?').join(', ')})`;
	const { numberParams, lockRead } = dialectOf(db);
	return db.$transaction(async (tx) => {
		// The jobs read are locked until the requeue commits: a second pass (another worker) waits, then
		// no longer sees them as claimed, so it cannot requeue a job claimed again after this requeue.
		const rows = await tx.$queryRawUnsafe<{ job_id: number; attempts: number }[]>(
			numberParams(`SELECT j.job_id, j.attempts FROM jobs j LEFT JOIN job_leases l ON l.job_id = j.job_id
			 WHERE j.status IN ${sqlList(CLAIMED_JOB_STATUSES)} AND (l.job_id IS NULL OR l.lease_expires_at < ?${deadHolder}) ${lockRead('j')}`),
			nowIso,
			...dead
		);
		const abandoned = rows.filter((r) => !own.has(Number(r.job_id)));
		const spent = abandoned.filter((r) => Number(r.attempts) >= options.maxAttempts).map((r) => Number(r.job_id));
		const requeued = abandoned.filter((r) => Number(r.attempts) < options.maxAttempts).map((r) => Number(r.job_id));
		if (requeued.length > 0) {
			await tx.job.updateMany({
				where: { jobId: { in: requeued }, status: { in: [...CLAIMED_JOB_STATUSES] } },
				data: {
					status: 'queued',
					error: 'requeued: the worker stopped while working on this job (lease expired or its launch known dead)',
					updatedAt: nowIso
				}
			});
		}
		const failed: number[] = [];
		for (const jobId of spent) {
			const error = `${WORKER_LOST_PREFIX} the worker stopped while working on this job on each of its ${options.maxAttempts} claims (killed or crashed), so it is not claimed again`;
			const result = await guardedUpdate(tx, jobId, GUARDS.failForGood, {
				status: 'failed',
				error,
				appearanceJson: null,
				updatedAt: nowIso
			});
			if (!result.won) continue;
			const job = await tx.job.findUniqueOrThrow({ where: { jobId }, select: { telegramUserId: true } });
			await queueGuestNotice(
				tx,
				{ jobId, telegramUserId: job.telegramUserId },
				{ kind: 'failure', textKey: 'failed' },
				nowIso
			);
			failed.push(jobId);
		}
		await tx.jobLease.deleteMany({ where: { jobId: { in: [...requeued, ...spent] } } });
		return { requeued, failed };
	});
}

/** How the error of a job failed at the cap by its worker's deaths starts (the console and the docs name it). */
export const WORKER_LOST_PREFIX = 'worker lost:';

/**
 * The launches holding job leases that the registry knows dead (knownDeadLaunches: stopped, silent
 * past its stale rule, or `gone` — the earlier launch whose stale instance lock this start took
 * over), never `self`. A holder with no registry row, or a live one, is not among them.
 */
export async function deadLeaseHolders(db: Db, clock: Clock, self: string, gone: GoneLaunch | null): Promise<string[]> {
	const leases = await db.jobLease.findMany({ where: { workerId: { not: self } }, select: { workerId: true } });
	const holders = [...new Set(leases.map((lease) => lease.workerId))];
	return knownDeadLaunches(db, clock, holders, gone);
}
