import type { Db, Tx } from '../db/client.ts';
import type { SqlRunner } from '../lifecycle/sql-runner.ts';
import type { Clock } from '../time/clock.ts';
import { ACTIVE_JOB_STATUSES, FINISHED_JOB_STATUSES, type JobStatus } from '../../schemas/job-status.ts';
import { LeaseLost } from './job-errors.ts';
import { queueGuestNotice } from './guest-notices.repository.ts';
import {
	GUARDS,
	guardedUpdate,
	refused,
	runningWrite,
	transitionWithNotice,
	type JobTransition
} from './job-guards.ts';

/**
 * The only writer of the `jobs` table, with job-claims.repository.ts (the claim, the lease, which
 * moves with the status, and the sweep of abandoned jobs). Every change is a named step that states
 * the status it starts from, as one conditional UPDATE (job-guards.ts): of two racing callers (two
 * slots, a slot and the deadline task, a worker and an operator) exactly one wins, and the loser
 * learns what the row says now and why it was refused. A change the guest must hear about queues its
 * notice (guest_notices) in the same transaction.
 */

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

// ─── Requeues and failures ───────────────────────────────────────────────────────────────────

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
