import type { Db } from '../../lib/server/db/client.ts';
import { readGuestLanguage } from '../../lib/server/guests/guest-profile.ts';
import { listJobsWithoutMessage, recordJobMessage, type JobNeedingNotice } from '../../lib/server/jobs/job-messages.ts';
import { readQueuePosition } from '../../lib/server/jobs/queue-position.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { isUnreachableChat } from '../../lib/server/telegram/errors.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import { MINUTE } from '../../lib/server/time/clock.ts';
import type { ScheduledTask } from '../scheduler.ts';
import { durationText, guestText } from '../../lib/i18n/guest-flow.ts';

export interface GeneratingNoticeDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: Pick<TelegramApi, 'sendMessage'>;
	slots: number;
}

export const GENERATING_NOTICE_EVERY_MS = 500;
/** Jobs older than this when first seen (a worker that was down for long) get no "Generating…". */
const NOTICE_WINDOW_MS = 30 * MINUTE;
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * The web process never calls Telegram, so the worker notices new jobs (a cheap indexed anti-join
 * every 500 ms) and sends the guest "Generating…" with their place in the queue. The message is
 * recorded in job_messages (kind "generating") so it is sent once and the generation worker can
 * edit it with stage progress.
 */
export function generatingNoticeTask(deps: GeneratingNoticeDeps): ScheduledTask {
	const retryAt = new Map<number, number>();
	return {
		name: 'generating-notice',
		everyMs: GENERATING_NOTICE_EVERY_MS,
		runAtStart: true,
		run: async () => {
			const now = deps.clock.now().getTime();
			const since = new Date(now - NOTICE_WINDOW_MS).toISOString();
			for (const job of await listJobsWithoutMessage(deps.db, 'generating', since)) {
				if ((retryAt.get(job.jobId) ?? 0) > now) continue;
				const sent = await sendGeneratingNotice(deps, job);
				if (sent) retryAt.delete(job.jobId);
				else retryAt.set(job.jobId, now + RETRY_AFTER_FAILURE_MS);
			}
		}
	};
}

/** Sends and records one notice; false when Telegram failed in a way worth retrying. */
export async function sendGeneratingNotice(deps: GeneratingNoticeDeps, job: JobNeedingNotice): Promise<boolean> {
	const locale = await readGuestLanguage(deps.db, job.telegramUserId);
	const queue = await readQueuePosition(deps, job.jobId);
	const eta = durationText(locale, queue?.etaSeconds ?? 90);
	const text =
		queue && queue.position > 0
			? guestText(locale, 'generatingQueued', { position: queue.position, eta })
			: guestText(locale, 'generatingNow', { eta });
	const chatId = job.telegramUserId;
	try {
		const message = await deps.api.sendMessage(Number(chatId), text);
		await recordJobMessage(deps.db, deps.clock, { jobId: job.jobId, kind: 'generating', chatId, messageId: BigInt(message.message_id) });
		return true;
	} catch (error) {
		if (isUnreachableChat(error)) {
			// Blocked bot or no such chat: nothing will change by retrying; record that there is nothing to edit.
			await recordJobMessage(deps.db, deps.clock, { jobId: job.jobId, kind: 'generating', chatId, messageId: 0n });
			return true;
		}
		deps.logger.warn({ err: error, jobId: job.jobId }, 'could not send "Generating…"; will retry');
		return false;
	}
}
