import type { Db } from '../../lib/server/db/client.ts';
import { recordStage } from '../../lib/server/jobs/job-progress.ts';
import {
	claimDelayNotice,
	failJobPastDeadline,
	listActiveJobsCreatedBy,
	listQueuedJobsNotNoticed
} from '../../lib/server/jobs/job.repository.ts';
import type { QueuePause } from '../../lib/server/jobs/queue-pause.ts';
import { listQueuePauses, runningMsSince, syncQueuePauses } from '../../lib/server/jobs/queue-pauses.repository.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { GenerationText } from '../../lib/i18n/generation.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/**
 * Job deadlines, kept in the database so they survive restarts. They count only the time the queue
 * was running since jobs.created_at (queue_pauses records when it stood still): a pause holds the
 * queue, it does not fail it. One notice per job (delay_notice_sent_at, claimed by a conditional
 * update so it is queued once): "taking longer" after the delay time, or — for a job waiting in a
 * pause that has lasted a minute — "delayed, it will come after the pause". At the hard deadline
 * `failed` with the guest told. The notices go to the guest notices outbox in the same
 * transaction as the change; the worker's outbox task sends them. A job whose sticker set
 * already exists is left to finish its delivery: failing it then would strand a ready pack.
 */
export interface DeadlineDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	delayNoticeMs: number;
	hardDeadlineMs: number;
}

/** A pause this short is a click and its undo: guests are not told about it. */
export const PAUSE_NOTICE_AFTER_MS = 60_000;

type Candidate = { jobId: number; telegramUserId: bigint; createdAt: string };

export async function enforceJobDeadlines(deps: DeadlineDeps): Promise<{ noticed: number[]; failed: number[] }> {
	const pause = await syncQueuePauses(deps.db, deps.clock);
	const failed = await failOverdueJobs(deps);
	const held = pause ? await tellWaitingGuests(deps, pause) : [];
	const noticed = [...held, ...(await queueDelayNotices(deps))];
	return { noticed, failed };
}

/** Jobs created at least `ms` ago whose running time has reached `ms` (a pause's time not counted). */
async function jobsRunningFor(
	deps: DeadlineDeps,
	ms: number,
	where: { delayNoticeSentAt?: null; packCreatedAt?: null }
): Promise<Candidate[]> {
	const now = deps.clock.now();
	const cutoff = new Date(now.getTime() - ms).toISOString();
	const candidates = await listActiveJobsCreatedBy(deps.db, cutoff, where);
	const oldest = candidates[0];
	if (!oldest) return [];
	const pauses = await listQueuePauses(deps.db, new Date(oldest.createdAt));
	return candidates.filter((job) => runningMsSince(pauses, new Date(job.createdAt), now) >= ms);
}

async function tellWaitingGuests(deps: DeadlineDeps, pause: QueuePause): Promise<number[]> {
	if (deps.clock.now().getTime() - Date.parse(pause.since) < PAUSE_NOTICE_AFTER_MS) return [];
	const waiting = await listQueuedJobsNotNoticed(deps.db);
	// The operator's words for guests ("Back at 14:00") go along; the staff's reason never does.
	return pause.guestNote
		? queueNoticeOnce(deps, waiting, 'pausedWithNote', { note: pause.guestNote })
		: queueNoticeOnce(deps, waiting, 'paused');
}

async function queueDelayNotices(deps: DeadlineDeps): Promise<number[]> {
	return queueNoticeOnce(deps, await jobsRunningFor(deps, deps.delayNoticeMs, { delayNoticeSentAt: null }), 'delay');
}

async function queueNoticeOnce(
	deps: DeadlineDeps,
	jobs: Pick<Candidate, 'jobId'>[],
	key: GenerationText,
	params?: Record<string, string>
): Promise<number[]> {
	const queued: number[] = [];
	for (const job of jobs) {
		if (await claimDelayNotice(deps.db, job.jobId, deps.clock.now().toISOString(), key, params)) queued.push(job.jobId);
	}
	return queued;
}

async function failOverdueJobs(deps: DeadlineDeps): Promise<number[]> {
	const { db, clock } = deps;
	const overdue = await jobsRunningFor(deps, deps.hardDeadlineMs, { packCreatedAt: null });
	const failed: number[] = [];
	for (const job of overdue) {
		const minutes = Math.round(deps.hardDeadlineMs / 60_000);
		const result = await failJobPastDeadline(
			db,
			clock,
			job.jobId,
			`deadline: not done within ${minutes} min of running queue time`
		);
		if (!result.won) continue;
		failed.push(job.jobId);
		await recordStage(db, clock, job.jobId, 'failed', 'hard deadline');
	}
	return failed;
}
