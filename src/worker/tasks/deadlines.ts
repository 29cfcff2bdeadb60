import type { Db } from '../../lib/server/db/client.ts';
import { recordStage } from '../../lib/server/jobs/job-progress.ts';
import { claimDelayNotice, failJobPastDeadline, listJobsDueDelayNotice, listJobsPastDeadline, releaseDelayNotice } from '../../lib/server/jobs/job.repository.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { sendGuestNotice } from '../../lib/server/telegram/guest-notices.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/**
 * Job deadlines, counted from jobs.created_at (the moment the guest saw "Generating…"), kept in the database so they survive
 * restarts: one "taking longer" notice (delay_notice_sent_at, claimed by a conditional update so
 * it is sent once), and at the hard deadline `failed` with the guest told. A job whose sticker set
 * already exists is left to finish its delivery: failing it then would strand a ready pack.
 */
export interface DeadlineDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	delayNoticeMs: number;
	hardDeadlineMs: number;
}

export async function enforceJobDeadlines(deps: DeadlineDeps): Promise<{ noticed: number[]; failed: number[] }> {
	const failed = await failOverdueJobs(deps);
	const noticed = await sendDelayNotices(deps);
	return { noticed, failed };
}

async function sendDelayNotices(deps: DeadlineDeps): Promise<number[]> {
	const { db, clock } = deps;
	const cutoff = new Date(clock.now().getTime() - deps.delayNoticeMs).toISOString();
	const due = await listJobsDueDelayNotice(db, cutoff);
	const sent: number[] = [];
	for (const job of due) {
		const nowIso = clock.now().toISOString();
		if (!(await claimDelayNotice(db, job.jobId, nowIso))) continue;
		try {
			await sendGuestNotice({ db, api: deps.api, logger: deps.logger }, job.telegramUserId, 'delay');
			sent.push(job.jobId);
		} catch (error) {
			// Not sent: release the claim so the next pass tries again (at most once delivered).
			await releaseDelayNotice(db, job.jobId, nowIso);
			deps.logger.warn({ err: error, jobId: job.jobId }, 'could not send the delay notice; will retry');
		}
	}
	return sent;
}

async function failOverdueJobs(deps: DeadlineDeps): Promise<number[]> {
	const { db, clock } = deps;
	const cutoff = new Date(clock.now().getTime() - deps.hardDeadlineMs).toISOString();
	const overdue = await listJobsPastDeadline(db, cutoff);
	const failed: number[] = [];
	for (const job of overdue) {
		const minutes = Math.round(deps.hardDeadlineMs / 60_000);
		const result = await failJobPastDeadline(db, clock, job.jobId, `deadline: not done within ${minutes} min of queueing`);
		if (!result.won) continue;
		failed.push(job.jobId);
		await recordStage(db, clock, job.jobId, 'failed', 'hard deadline');
		await sendGuestNotice({ db, api: deps.api, logger: deps.logger }, job.telegramUserId, 'deadline').catch((error: unknown) => deps.logger.warn({ err: error, jobId: job.jobId }, 'could not tell the guest about the deadline'));
	}
	return failed;
}
