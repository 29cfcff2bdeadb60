import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The generation queue's data layer. The claim is raw SQL because it must be one atomic statement
 * (PRODUCT.md B): `UPDATE … WHERE job_id = (oldest queued) AND status = 'queued'` — of N slots
 * racing, exactly one gets a given job. It runs in a BEGIN IMMEDIATE transaction together with the
 * lease row, so no job is ever `processing` without a lease.
 */
export const ACTIVE_STATUSES = ['queued', 'processing', 'delivering'] as const;

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

export async function claimNextJob(db: Db, clock: Clock, workerId: string, leaseMs: number): Promise<ClaimedJob | null> {
	const now = clock.now();
	const nowIso = now.toISOString();
	return db.$transaction(async (tx) => {
		const rows = await tx.$queryRawUnsafe<{ job_id: number; attempts: number }[]>(
			`UPDATE jobs SET status = 'processing', attempts = attempts + 1, updated_at = ?
			 WHERE job_id = (
			   SELECT j.job_id FROM jobs j LEFT JOIN job_progress p ON p.job_id = j.job_id
			   WHERE j.status = 'queued' AND (p.not_before IS NULL OR p.not_before <= ?)
			   ORDER BY j.created_at, j.job_id LIMIT 1
			 ) AND status = 'queued'
			 RETURNING job_id, attempts`,
			nowIso,
			nowIso
		);
		const row = rows[0];
		if (!row) return null;
		const jobId = Number(row.job_id);
		const lease = { workerId, claimedAt: nowIso, heartbeatAt: nowIso, leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString() };
		await tx.jobLease.upsert({ where: { jobId }, create: { jobId, ...lease }, update: lease });
		return { jobId, attempts: Number(row.attempts), claimedAt: nowIso };
	});
}

/** Is a claim possible right now? The cheap indexed check the loop polls (idx_jobs_status). */
export async function hasQueuedJob(db: Db): Promise<boolean> {
	return (await db.job.findFirst({ where: { status: 'queued' }, select: { jobId: true } })) !== null;
}

/** Extends the lease; false when this claim no longer holds it or the job left the active states. */
export async function renewLease(db: Db, clock: Clock, lease: LeaseRef, leaseMs: number): Promise<boolean> {
	const now = clock.now();
	const { jobId, workerId, claimedAt } = lease;
	const { count } = await db.jobLease.updateMany({
		where: { jobId, workerId, claimedAt },
		data: { heartbeatAt: now.toISOString(), leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString() }
	});
	if (count === 0) return false;
	const job = await db.job.findUnique({ where: { jobId }, select: { status: true } });
	return job?.status === 'processing' || job?.status === 'delivering';
}

export async function releaseLease(db: Db, lease: LeaseRef): Promise<void> {
	await db.jobLease.deleteMany({ where: { jobId: lease.jobId, workerId: lease.workerId, claimedAt: lease.claimedAt } });
}

/**
 * Jobs whose worker died: active, with an expired lease (or none at all), go back to the queue.
 * Returns their ids. Runs at start-up and periodically. `except` are the caller's own running
 * jobs: a worker frozen past its lease (GC, swap) must not requeue work it is still doing.
 */
export async function requeueAbandonedJobs(db: Db, clock: Clock, options: { except?: Iterable<number> } = {}): Promise<number[]> {
	const nowIso = clock.now().toISOString();
	const own = new Set(options.except ?? []);
	return db.$transaction(async (tx) => {
		const rows = await tx.$queryRawUnsafe<{ job_id: number }[]>(
			`SELECT j.job_id FROM jobs j LEFT JOIN job_leases l ON l.job_id = j.job_id
			 WHERE j.status IN ('processing', 'delivering') AND (l.job_id IS NULL OR l.lease_expires_at < ?)`,
			nowIso
		);
		const ids = rows.map((r) => Number(r.job_id)).filter((id) => !own.has(id));
		if (ids.length === 0) return ids;
		await tx.job.updateMany({
			where: { jobId: { in: ids }, status: { in: ['processing', 'delivering'] } },
			data: { status: 'queued', error: 'requeued: the worker stopped while working on this job (lease expired)', updatedAt: nowIso }
		});
		await tx.jobLease.deleteMany({ where: { jobId: { in: ids } } });
		return ids;
	});
}

export interface RequeueOptions {
	error: string;
	notBefore: Date | null;
	/** Faults of the provider as a whole (quota day, billing, our own shutdown) do not use up an attempt. */
	refundAttempt: boolean;
}

/** Back to `queued` with a requeue marker in `error`, only from this worker's active claim. */
export async function requeueJob(db: Db, clock: Clock, jobId: number, options: RequeueOptions): Promise<boolean> {
	const nowIso = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		const { count } = await tx.job.updateMany({
			where: { jobId, status: { in: ['processing', 'delivering'] } },
			data: {
				status: 'queued',
				error: `requeue: ${options.error}`.slice(0, 1000),
				updatedAt: nowIso,
				...(options.refundAttempt ? { attempts: { decrement: 1 } } : {})
			}
		});
		if (count === 0) return false;
		const notBefore = options.notBefore?.toISOString() ?? null;
		await tx.jobProgress.upsert({
			where: { jobId },
			create: { jobId, stage: 'queued', stageStartedAt: nowIso, updatedAt: nowIso, notBefore },
			update: { notBefore, updatedAt: nowIso }
		});
		return true;
	});
}

/** `processing|delivering → failed` with the last error; the appearance card is cleared (seed 000). */
export async function failJob(db: Db, clock: Clock, jobId: number, error: string, from: string[] = ['processing', 'delivering']): Promise<boolean> {
	const { count } = await db.job.updateMany({
		where: { jobId, status: { in: from } },
		data: { status: 'failed', error: error.slice(0, 1000), appearanceJson: null, updatedAt: clock.now().toISOString() }
	});
	return count > 0;
}
