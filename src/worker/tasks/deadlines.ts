import type { Db } from '../../lib/server/db/client.ts';
import { recordStage } from '../../lib/server/jobs/job-progress.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { sendGuestNotice } from '../../lib/server/telegram/guest-notices.ts';
import type { Clock } from '../../lib/server/time/clock.ts';

/**
 * Job deadlines, counted from jobs.created_at (PRODUCT.md B), kept in the database so they survive
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

const ACTIVE = ['queued', 'processing', 'delivering'];

export async function enforceJobDeadlines(deps: DeadlineDeps): Promise<{ noticed: number[]; failed: number[] }> {
	const failed = await failOverdueJobs(deps);
	const noticed = await sendDelayNotices(deps);
	return { noticed, failed };
}

async function sendDelayNotices(deps: DeadlineDeps): Promise<number[]> {
	const { db, clock } = deps;
	const cutoff = new Date(clock.now().getTime() - deps.delayNoticeMs).toISOString();
	const due = await db.job.findMany({ where: { status: { in: ACTIVE }, delayNoticeSentAt: null, createdAt: { lte: cutoff } }, select: { jobId: true, telegramUserId: true } });
	const sent: number[] = [];
	for (const job of due) {
		const nowIso = clock.now().toISOString();
		const { count } = await db.job.updateMany({ where: { jobId: job.jobId, delayNoticeSentAt: null }, data: { delayNoticeSentAt: nowIso } });
		if (count === 0) continue;
		try {
			await sendGuestNotice({ db, api: deps.api, logger: deps.logger }, job.telegramUserId, 'delay');
			sent.push(job.jobId);
		} catch (error) {
			// Not sent: release the claim so the next pass tries again (at most once delivered).
			await db.job.updateMany({ where: { jobId: job.jobId, delayNoticeSentAt: nowIso }, data: { delayNoticeSentAt: null } });
			deps.logger.warn({ err: error, jobId: job.jobId }, 'could not send the delay notice; will retry');
		}
	}
	return sent;
}

async function failOverdueJobs(deps: DeadlineDeps): Promise<number[]> {
	const { db, clock } = deps;
	const cutoff = new Date(clock.now().getTime() - deps.hardDeadlineMs).toISOString();
	const overdue = await db.job.findMany({ where: { status: { in: ACTIVE }, packCreatedAt: null, createdAt: { lte: cutoff } }, select: { jobId: true, telegramUserId: true } });
	const failed: number[] = [];
	for (const job of overdue) {
		const minutes = Math.round(deps.hardDeadlineMs / 60_000);
		const { count } = await db.job.updateMany({
			where: { jobId: job.jobId, status: { in: ACTIVE }, packCreatedAt: null },
			data: { status: 'failed', error: `deadline: not done within ${minutes} min of queueing`, appearanceJson: null, updatedAt: clock.now().toISOString() }
		});
		if (count === 0) continue;
		failed.push(job.jobId);
		await recordStage(db, clock, job.jobId, 'failed', 'hard deadline');
		await sendGuestNotice({ db, api: deps.api, logger: deps.logger }, job.telegramUserId, 'deadline').catch((error: unknown) => deps.logger.warn({ err: error, jobId: job.jobId }, 'could not tell the guest about the deadline'));
	}
	return failed;
}
