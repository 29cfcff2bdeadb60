import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { Scheduler } from '../scheduler.ts';
import { requeueUnfinishedRedraws } from '../../lib/server/jobs/sticker-redraws.repository.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { enforceJobDeadlines } from '../tasks/deadlines.ts';
import { warnAdminsAboutDailyRequests } from '../tasks/rpd-warning.ts';
import { MODEL_CHECK_EVERY_MS, runModelCheck } from '../tasks/model-check.task.ts';
import { runNextStickerRedraw } from '../tasks/sticker-redraws.ts';
import { guestNoticesTask, guestStatusTask } from '../tasks/guest-notices.task.ts';
import { EditPacer } from '../../lib/server/telegram/edit-pacer.ts';
import type { QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';

/**
 * The generation queue's periodic tasks: deadlines every 5 s, the guest notices outbox every
 * 500 ms and the guests' status messages every second, the daily request counter every
 * minute, operators' sticker redraws every second (one at a time; ones a launch no longer
 * alive left unfinished are put back first, at every pass), the configured models asked for at start and every hour.
 * Deadlines, the request counter and the model check run once per period across the workers; the
 * outboxes and redraws in each, as they claim their rows.
 */
export function scheduleGenerationTasks(scheduler: Scheduler, deps: { config: Config; db: Db; clock: Clock; logger: Logger; api: TelegramApi; statusApi: TelegramApi; queue: QueueDeps; stopping: AbortSignal }): void {
	const { config, db, clock, logger, api } = deps;
	const notices = deps.queue.notices;
	scheduler.add(guestNoticesTask(notices, deps.stopping));
	// statusApi is the notices' client, not bot.api: the pacer takes each edit's place itself, and
	// bot.api's calls wait for a place of their own (send-budget-api.ts) — one edit takes one place.
	scheduler.add(guestStatusTask({ db, clock, logger, api: deps.statusApi, slots: config.WORKER_SLOTS, pacer: new EditPacer(notices.budget), cooldown: notices.cooldown, crashPoint: deps.queue.crashPoint }));
	scheduler.add({
		name: 'sticker-redraws',
		everyMs: 1_000,
		runAtStart: true,
		run: async () => {
			// Every pass, not only at start: a worker killed on another host never starts here again.
			await requeueUnfinishedRedraws(db, clock, deps.queue.workerId);
			while (!deps.stopping.aborted && (await runNextStickerRedraw(deps.queue, deps.stopping)) !== null);
		}
	});
	scheduler.add({
		name: 'job-deadlines',
		everyMs: 5_000,
		runAtStart: true,
		oncePerPeriod: true,
		run: async () => {
			const { noticed, failed } = await enforceJobDeadlines({ db, clock, logger, delayNoticeMs: config.JOB_DELAY_NOTICE_MINUTES * 60_000, hardDeadlineMs: config.JOB_HARD_DEADLINE_MINUTES * 60_000 });
			if (noticed.length || failed.length) logger.info({ noticed, failed }, 'job deadlines applied');
		}
	});
	scheduler.add({
		name: 'model-check',
		everyMs: MODEL_CHECK_EVERY_MS,
		runAtStart: true,
		oncePerPeriod: true,
		run: async () => {
			await runModelCheck(config, { db, clock, logger, api, adminIds: config.ADMIN_TELEGRAM_IDS });
		}
	});
	scheduler.add({
		name: 'rpd-warning',
		everyMs: 60_000,
		oncePerPeriod: true,
		run: async () => {
			await warnAdminsAboutDailyRequests({ db, clock, logger, api, threshold: config.RPD_WARN_THRESHOLD, adminIds: config.ADMIN_TELEGRAM_IDS });
		}
	});
}
