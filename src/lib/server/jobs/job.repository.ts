import type { Db, Tx } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { updateWhileStatus } from '../db/transition.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { SqlRunner } from '../lifecycle/sql-runner.ts';
import type { Clock } from '../time/clock.ts';
import {
	ACTIVE_JOB_STATUSES,
	CLAIMED_JOB_STATUSES,
	FINISHED_JOB_STATUSES,
	jobStatusSchema,
	type JobStatus
} from '../../schemas/job-status.ts';
import { LeaseLost } from './job-errors.ts';
import { queueGuestNotice, type NoticeToQueue } from './guest-notices.repository.ts';

/**
 * The only writer of the `jobs` table (and of a job's lease, which moves with its status). Every
 * change is a named step that states the status it starts from, as one conditional UPDATE: of two
 * racing callers (two slots, a slot and the deadline task, a worker and an operator) exactly one
 * wins, and the loser learns what the row says now and why it was refused. A change the guest must
 * hear about queues its notice (guest_notices) in the same transaction.
 */
export type JobTransition = { won: true } | { won: false; current: JobStatus | null; refusal: string };

interface Guard {
	from: readonly JobStatus[];
	/** Conditions beyond the status (a marker still unset, say). */
	where?: Prisma.JobWhereInput;
	/** The rule in words, for the refusal. */
	rule: string;
}

const GUARDS = {
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

async function guardedUpdate(
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

function refused(jobId: number, guard: Guard, status: string | undefined): JobTransition & { won: false } {
	if (status === undefined)
		return { won: false, current: null, refusal: `job ${jobId} does not exist (the guest may have been reset)` };
	const current = jobStatusSchema.parse(status);
	return { won: false, current, refusal: `job ${jobId} is ${current}: ${guard.rule}` };
}

/** A write the running job needs: when refused, this claim has lost the job and must stop. */
async function runningWrite(
	db: Db | Tx,
	jobId: number,
	guard: Guard,
	data: Prisma.JobUpdateManyMutationInput
): Promise<void> {
	const result = await guardedUpdate(db, jobId, guard, data);
	if (!result.won) throw new LeaseLost(result.refusal);
}

// ─── Queued: a guest's photo, or an operator's retry ─────────────────────────────────────────

/** A new job, queued at `now` (created_at is the base of every deadline), with its "Generating…" notice. */
export async function enqueueJob(
	tx: Tx,
	job: { telegramUserId: bigint; sessionToken: string; photoPath: string; templateId: string; now: string }
): Promise<number> {
	const { now, ...fields } = job;
	const row = await tx.job.create({
		data: { ...fields, status: 'queued', attempts: 0, createdAt: now, updatedAt: now }
	});
	await queueGuestNotice(
		tx,
		{ jobId: row.jobId, telegramUserId: job.telegramUserId },
		{ kind: 'generating', textKey: 'generating' },
		now
	);
	return row.jobId;
}

/** A won transition and the notice it owes the guest, in one transaction. */
async function transitionWithNotice(
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

/** failed → queued: the full time again (created_at rewritten), attempts from 0, the error cleared. */
export function retryFailedJob(db: Db | Tx, clock: Clock, jobId: number): Promise<JobTransition> {
	const now = clock.now().toISOString();
	return guardedUpdate(db, jobId, GUARDS.retry, {
		status: 'queued',
		createdAt: now,
		updatedAt: now,
		attempts: 0,
		error: null
	});
}

// ─── Claimed: the lease, requeues and failures ───────────────────────────────────────────────

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
 * processing|delivering → queued for jobs whose worker died: an expired lease (or none at all).
 * Runs at start-up and periodically. `except` are the caller's own running jobs: a worker frozen
 * past its lease (GC, swap) must not requeue work it is still doing.
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
	options: { except?: Iterable<number>; maxAttempts: number }
): Promise<AbandonedJobs> {
	const nowIso = clock.now().toISOString();
	const own = new Set(options.except ?? []);
	const { numberParams, lockRead } = dialectOf(db);
	return db.$transaction(async (tx) => {
		// The jobs read are locked until the requeue commits: a second pass (another worker) waits, then
		// no longer sees them as claimed, so it cannot requeue a job claimed again after this requeue.
		const rows = await tx.$queryRawUnsafe<{ job_id: number; attempts: number }[]>(
			numberParams(`SELECT j.job_id, j.attempts FROM jobs j LEFT JOIN job_leases l ON l.job_id = j.job_id
			 WHERE j.status IN ${sqlList(CLAIMED_JOB_STATUSES)} AND (l.job_id IS NULL OR l.lease_expires_at < ?) ${lockRead('j')}`),
			nowIso
		);
		const abandoned = rows.filter((r) => !own.has(Number(r.job_id)));
		const spent = abandoned.filter((r) => Number(r.attempts) >= options.maxAttempts).map((r) => Number(r.job_id));
		const requeued = abandoned.filter((r) => Number(r.attempts) < options.maxAttempts).map((r) => Number(r.job_id));
		if (requeued.length > 0) {
			await tx.job.updateMany({
				where: { jobId: { in: requeued }, status: { in: [...CLAIMED_JOB_STATUSES] } },
				data: {
					status: 'queued',
					error: 'requeued: the worker stopped while working on this job (lease expired)',
					updatedAt: nowIso
				}
			});
		}
		const failed: number[] = [];
		for (const jobId of spent) {
			const error = `${WORKER_LOST_PREFIX} the worker stopped while working on this job on each of its ${options.maxAttempts} claims (killed or crashed; lease expired), so it is not claimed again`;
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

export interface RequeueOptions {
	error: string;
	notBefore: Date | null;
	/** Faults of the provider as a whole (quota day, billing, our own shutdown) do not use up an attempt. */
	refundAttempt: boolean;
}

/** processing|delivering → queued with a requeue marker in `error` and the backoff in job_progress.not_before. */
export async function requeueJob(db: Db, clock: Clock, jobId: number, options: RequeueOptions): Promise<JobTransition> {
	const nowIso = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		const result = await guardedUpdate(tx, jobId, GUARDS.requeue, {
			status: 'queued',
			error: `requeue: ${options.error}`.slice(0, 1000),
			updatedAt: nowIso,
			...(options.refundAttempt ? { attempts: { decrement: 1 } } : {})
		});
		if (!result.won) return result;
		const notBefore = options.notBefore?.toISOString() ?? null;
		await tx.jobProgress.upsert({
			where: { jobId },
			create: { jobId, stage: 'queued', stageStartedAt: nowIso, updatedAt: nowIso, notBefore },
			update: { notBefore, updatedAt: nowIso }
		});
		return result;
	});
}

/**
 * processing|delivering → failed with the last error; the appearance card (the guest's face in
 * words) goes; the guest is told (`textKey`: the failure text that fits the cause).
 */
export function failJobForGood(
	db: Db,
	clock: Clock,
	jobId: number,
	error: string,
	textKey = 'failed'
): Promise<JobTransition> {
	const now = clock.now().toISOString();
	return transitionWithNotice(db, jobId, now, { kind: 'failure', textKey }, (tx) =>
		guardedUpdate(tx, jobId, GUARDS.failForGood, {
			status: 'failed',
			error: error.slice(0, 1000),
			appearanceJson: null,
			updatedAt: now
		})
	);
}

/** queued|processing|delivering → failed at the hard deadline, unless the sticker set exists (delivery may finish); the guest is told. */
export function failJobPastDeadline(db: Db, clock: Clock, jobId: number, error: string): Promise<JobTransition> {
	const now = clock.now().toISOString();
	return transitionWithNotice(db, jobId, now, { kind: 'deadline', textKey: 'deadline' }, (tx) =>
		guardedUpdate(tx, jobId, GUARDS.failPastDeadline, { status: 'failed', error, appearanceJson: null, updatedAt: now })
	);
}

// ─── Processing: what the drawing half keeps on the row (each throws LeaseLost when refused) ──

/** The art style and render mode the job is drawn with, fixed when the job is first run. */
export async function recordDrawingChoices(
	db: Db,
	jobId: number,
	choices: { artStyle: string; renderMode: string }
): Promise<void> {
	await runningWrite(db, jobId, GUARDS.draw, choices);
}

/** The appearance card, cached so a retried job does not pay for the passport twice. */
export async function recordAppearanceCard(db: Db, clock: Clock, jobId: number, cardJson: string): Promise<void> {
	await runningWrite(db, jobId, GUARDS.draw, { appearanceJson: cardJson, updatedAt: clock.now().toISOString() });
}

/** composite_fallback, decided during the run. */
export async function recordRenderMode(db: Db, clock: Clock, jobId: number, renderMode: string): Promise<void> {
	await runningWrite(db, jobId, GUARDS.draw, { renderMode, updatedAt: clock.now().toISOString() });
}

/** jobs.provider_used lists every provider that drew part of the pack, across resumed runs too. */
export async function recordProvidersUsed(db: Db, jobId: number, used: ReadonlySet<string>): Promise<void> {
	if (used.size === 0) return;
	await db.$transaction(async (tx) => {
		const job = await tx.job.findUniqueOrThrow({ where: { jobId }, select: { providerUsed: true } });
		const all = new Set([...(job.providerUsed?.split(',').filter(Boolean) ?? []), ...used]);
		await runningWrite(tx, jobId, GUARDS.draw, { providerUsed: [...all].join(',') });
	});
}

// ─── Delivering: the sticker set, then done ──────────────────────────────────────────────────

/** processing → delivering, once the 12 stickers are checked. */
export function markJobDelivering(db: Db, clock: Clock, jobId: number): Promise<JobTransition> {
	return guardedUpdate(db, jobId, GUARDS.markDelivering, {
		status: 'delivering',
		updatedAt: clock.now().toISOString()
	});
}

/** The pack name is stored before the set is created; a name stored by an earlier run is kept. Returns the stored one. */
export async function recordPackName(db: Db, jobId: number, name: string): Promise<string> {
	const { from } = GUARDS.deliver;
	await db.job.updateMany({ where: { jobId, status: { in: [...from] }, packName: null }, data: { packName: name } });
	const job = await db.job.findUnique({ where: { jobId }, select: { packName: true, status: true } });
	if (!job || !(from as readonly string[]).includes(job.status))
		throw new LeaseLost(refused(jobId, GUARDS.deliver, job?.status).refusal);
	return job.packName ?? name;
}

/** The set exists in Telegram: from here on the deadline no longer fails the job. */
export async function recordPackCreated(db: Db, clock: Clock, jobId: number): Promise<void> {
	const now = clock.now().toISOString();
	await runningWrite(db, jobId, GUARDS.deliver, { packCreatedAt: now, updatedAt: now });
}

/** delivering → done with link_sent_at, in the caller's transaction with the guest's users row. */
export function completeJob(tx: Tx, jobId: number, now: string): Promise<JobTransition> {
	return guardedUpdate(tx, jobId, GUARDS.complete, {
		status: 'done',
		linkSentAt: now,
		appearanceJson: null,
		error: null,
		updatedAt: now
	});
}

// ─── Markers and clean-ups outside a run ─────────────────────────────────────────────────────

export type JobOfGuest = { jobId: number; telegramUserId: bigint };

/** Active jobs queued at or before `cutoff`, oldest first; the deadline pass then takes out the pause time. */
export function listActiveJobsCreatedBy(
	db: Db,
	cutoff: string,
	where: { delayNoticeSentAt?: null; packCreatedAt?: null }
): Promise<(JobOfGuest & { createdAt: string })[]> {
	return db.job.findMany({
		where: { status: { in: [...ACTIVE_JOB_STATUSES] }, createdAt: { lte: cutoff }, ...where },
		select: { jobId: true, telegramUserId: true, createdAt: true },
		orderBy: { createdAt: 'asc' }
	});
}

/** Queued jobs whose guest has had no notice yet, oldest first: told once that a pause delays them. */
export function listQueuedJobsNotNoticed(db: Db): Promise<JobOfGuest[]> {
	return db.job.findMany({
		where: { status: 'queued', delayNoticeSentAt: null },
		select: { jobId: true, telegramUserId: true },
		orderBy: { createdAt: 'asc' }
	});
}

export function findJob(db: Db | Tx, jobId: number) {
	return db.job.findUnique({ where: { jobId } });
}

/**
 * The one delay notice per job (delay_notice_sent_at marks it queued, so two passes never both
 * queue it): "taking longer" (`delay`) or "delayed by a pause" (`paused`). The outbox sends it.
 */
export async function claimDelayNotice(
	db: Db,
	jobId: number,
	nowIso: string,
	textKey = 'delay',
	params?: Record<string, string>
): Promise<boolean> {
	const result = await transitionWithNotice(
		db,
		jobId,
		nowIso,
		{ kind: 'delay', textKey, ...(params ? { params } : {}) },
		(tx) => guardedUpdate(tx, jobId, GUARDS.delayNotice, { delayNoticeSentAt: nowIso })
	);
	return result.won;
}

/** Appearance cards of finished jobs, and of jobs queued before `queuedBefore`, are dropped. */
export async function clearAppearanceCards(db: Db, queuedBefore: string): Promise<number> {
	const { count } = await db.job.updateMany({
		where: {
			appearanceJson: { not: null },
			OR: [{ status: { in: [...FINISHED_JOB_STATUSES] } }, { createdAt: { lt: queuedBefore } }]
		},
		data: { appearanceJson: null }
	});
	return count;
}

/**
 * A guest's jobs, for the erasures (/forget, retention, reset): raw SQL through SqlRunner because
 * the same statement also runs on a restored backup file, before any process has opened it.
 */
export function deleteGuestJobs(sql: SqlRunner, telegramUserId: bigint): Promise<number> {
	return sql.run(`DELETE FROM jobs WHERE telegram_user_id = ?`, [telegramUserId]);
}

/** Statuses as an SQL list for raw queries, e.g. `('queued','processing','delivering')`. */
export function sqlList(statuses: readonly JobStatus[]): string {
	return `(${statuses.map((s) => `'${s}'`).join(',')})`;
}
