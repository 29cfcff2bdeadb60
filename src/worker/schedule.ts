import { resolveBackupDir } from '../lib/server/backup/backup-files.ts';
import { eraseExpiredBroadcasts } from '../lib/server/broadcasts/broadcast-retention.ts';
import type { Config } from '../lib/server/config/config.ts';
import type { Db } from '../lib/server/db/client.ts';
import type { FileStore } from '../lib/server/files/file-store.ts';
import { pruneTaskRuns } from '../lib/server/fleet/task-periods.ts';
import type { QueueDeps } from '../lib/server/jobs/run/queue-deps.ts';
import { SWEEP_INTERVAL_MS } from '../lib/server/lifecycle/file-sweep.ts';
import type { Logger } from '../lib/server/log/logger.ts';
import type { TelegramApi } from '../lib/server/telegram/api.ts';
import type { BotBudget } from '../lib/server/telegram/bot-budget.ts';
import type { SendPacing } from '../lib/server/telegram/send-budget-api.ts';
import { EditPacer } from '../lib/server/telegram/edit-pacer.ts';
import { deliverGuestNotices } from '../lib/server/jobs/guest-notice-outbox.ts';
import { refreshGuestStatuses } from '../lib/server/jobs/guest-status.ts';
import { HOUR, MINUTE, SECOND, type Clock } from '../lib/server/time/clock.ts';
import { releaseDeadHolds } from '../lib/server/telegram/dead-holds.ts';
import { deliverAdminAlerts } from '../lib/server/telegram/admin-alerts.ts';
import { pruneEndedAlerts } from '../lib/server/telegram/admin-alerts.repository.ts';
import { HEARTBEAT_EVERY_MS, recordHeartbeat } from '../lib/server/workers/worker-registry.ts';
import { UPDATES_LEASE_TICK_MS, type UpdatesLeaseKeeper } from './bot/updates-lease.ts';
import type { JobLoop } from './queue/job-loop.ts';
import type { ScheduledTask } from './scheduler.ts';
import { runBackupIfDue } from './tasks/backup.task.ts';
import { botUsernamePublisher, type BotIdentity } from './tasks/bot-username.task.ts';
import { createBroadcastDeliveryDeps, deliverBroadcasts } from './tasks/broadcasts-deliver.ts';
import { enforceJobDeadlines } from './tasks/deadlines.ts';
import { applyPendingCardEdits } from './tasks/leads-cards.ts';
import { createLeadsTaskDeps, leadsInForce } from './tasks/leads-deps.ts';
import { postDailyDigest } from './tasks/leads-digest.ts';
import { publishPendingLeads } from './tasks/leads-publish.ts';
import { remindAboutIdleLeads } from './tasks/leads-reminders.ts';
import { notifyPendingRepeats } from './tasks/leads-repeats.ts';
import { eraseExpiredLeadData } from './tasks/leads-retention.ts';
import { pruneLogs } from './tasks/log-prune.task.ts';
import { runModelCheck } from './tasks/model-check.task.ts';
import { runRetention } from './tasks/retention.task.ts';
import { warnAdminsAboutDailyRequests } from './tasks/rpd-warning.ts';
import { sessionTimeoutsPass } from './tasks/session-timeouts.task.ts';
import { runStickerRedraws } from './tasks/sticker-redraws.ts';
import { runTtlSweep } from './tasks/ttl-sweep.task.ts';
import type { SecretsInForce } from '../lib/server/settings/console-secrets.ts';
import {
	applyRuntimeSettings,
	type ProviderSettingsInUse,
	type RuntimeApplyDeps
} from './tasks/runtime-settings.task.ts';
import { RUNTIME_SETTINGS_TTL_MS, type RuntimeSettings } from '../lib/server/settings/runtime-settings.ts';

/** When a task runs: its period and its fleet rules (scheduler.ts says what each flag does). */
type Timing = Pick<ScheduledTask, 'everyMs' | 'runAtStart' | 'oncePerPeriod' | 'startNeedsClaim'>;

/**
 * Every scheduled task of the worker, in the order the scheduler is given them (which is the order
 * of their first runs at start). Every worker runs this whole schedule. `oncePerPeriod` tasks run
 * in one worker per period of `everyMs` (the period's claim in scheduled_task_runs); the others run
 * in every worker, because they are the worker's own (heartbeat, the updates lease) or claim their
 * rows with SKIP LOCKED and leases (the outboxes, redraws). `runAtStart` on a fleet-wide task goes
 * ahead whatever the claim — a restart is how a changed setting takes effect — unless
 * `startNeedsClaim`. The bodies live in tasks/ and the domains they call; docs/scale-out.md lists
 * the fleet rules for operators. `schedule.spec.ts` pins this table: change both on purpose.
 */
export const WORKER_SCHEDULE = {
	// ─── The fleet's own bookkeeping ─────────────────────────────────────────────────────────────
	// Period claims older than a day are removed; one worker an hour is plenty.
	'task-runs-prune': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },
	// Each worker's own row in worker_processes; the web process beats at the same pace, and the
	// Live page, /health and restore read a worker as alive by it.
	heartbeat: { everyMs: HEARTBEAT_EVERY_MS, runAtStart: true },
	// Send-budget places held by workers the registry now calls dead are released (dead-holds.ts);
	// in every worker, at the heartbeat's pace: a conditional update per place, so racing is harmless.
	'send-budget-holds': { everyMs: HEARTBEAT_EVERY_MS },

	// ─── Data lifecycle (docs/data-lifecycle.md) ─────────────────────────────────────────────────
	// Hourly sweeps over the current state, once for the fleet; at start so a changed setting (a
	// shorter PHOTO_TTL_HOURS) takes effect on restart. The TTL sweep's cutoff is moved forward by
	// its own interval (file-sweep.ts), so no file outlives the TTL.
	'ttl-sweep': { everyMs: SWEEP_INTERVAL_MS, runAtStart: true, oncePerPeriod: true },
	retention: { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },
	// Checked hourly, taken when the last good backup is about a day old. Its run at start also needs
	// the period's claim: two workers starting together must take one dump, not one each.
	backup: { everyMs: HOUR, runAtStart: true, oncePerPeriod: true, startNeedsClaim: true },
	// Keeps log_entries to its cap (log-retention.ts).
	'log-prune': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },

	// ─── Leads (docs/leads.md) ───────────────────────────────────────────────────────────────────
	// The outboxes run in every worker (their rows are claimed) and poll a cheap indexed query:
	// a new lead's card each second, repeats and card edits every 2 s.
	'leads-publish': { everyMs: SECOND, runAtStart: true },
	'leads-repeats': { everyMs: 2 * SECOND },
	'leads-card-edits': { everyMs: 2 * SECOND },
	// Reminders and the digest are checked each minute (the digest posts when the day's time has
	// come), retention hourly; each once for the fleet, so the group hears each thing once.
	'leads-reminders': { everyMs: MINUTE, oncePerPeriod: true },
	'leads-digest': { everyMs: MINUTE, runAtStart: true, oncePerPeriod: true },
	'leads-retention': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },

	// ─── Broadcasts to guests who opted in to news ───────────────────────────────────────────────
	// The outbox polls each second in every worker (recipients are claimed); finished broadcasts
	// past their 180 days are erased hourly, once for the fleet.
	'broadcasts-deliver': { everyMs: SECOND, runAtStart: true },
	'broadcasts-retention': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },

	// ─── The guest's session and the bot ─────────────────────────────────────────────────────────
	// The server's session clock: once a second is well inside the kiosk's countdown granularity.
	'session-timeouts': { everyMs: SECOND, runAtStart: true },
	// The bot's @username for the web's kiosk QR codes, published as soon as getMe has answered.
	'bot-username': { everyMs: SECOND, runAtStart: true },
	// One getUpdates consumer per bot: the holder renews its lease (15 s) each tick, the others
	// try to take it, so every worker ticks.
	'telegram-updates-lease': { everyMs: UPDATES_LEASE_TICK_MS, runAtStart: true },

	// ─── The generation queue (the job loop itself is not a scheduled task) ──────────────────────
	// The guest notices outbox every 500 ms, so a guest hears within a second; status edits are
	// paced per guest (EditPacer), and a pass a second follows them. Both claim their rows.
	'guest-notices': { everyMs: 500, runAtStart: true },
	'guest-status': { everyMs: SECOND, runAtStart: true },
	// Operators' redraws, one at a time, in every worker (claimed).
	'sticker-redraws': { everyMs: SECOND, runAtStart: true },
	// Delay notices and hard deadlines, the configured models asked for (a missing model pauses the
	// queue; at start so a changed model is checked at once) and the daily request counter: each once
	// for the fleet, so admins get one message, not one per worker.
	'job-deadlines': { everyMs: 5 * SECOND, runAtStart: true, oncePerPeriod: true },
	'model-check': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },
	'rpd-warning': { everyMs: MINUTE, oncePerPeriod: true },
	// Admin alerts are sent when raised; the outbox retries the ones Telegram refused (429, 5xx) in
	// every worker (rows are claimed), and drops ended ones after 30 days, once for the fleet.
	'admin-alerts': { everyMs: 2 * SECOND, runAtStart: true },
	'admin-alerts-retention': { everyMs: HOUR, runAtStart: true, oncePerPeriod: true },

	// ─── Settings changed on the console (docs/console.md "Settings") ────────────────────────────
	// Each worker applies the settings in force to its own queue (slots, admins, the image provider
	// after its model check) every 5 s, the reader's cache period: no restart for a change.
	'runtime-settings': { everyMs: RUNTIME_SETTINGS_TTL_MS, runAtStart: true }
} as const satisfies Record<string, Timing>;

export type WorkerTaskName = keyof typeof WORKER_SCHEDULE;

/** What the worker has built by the time it schedules its tasks (main.ts). */
export interface WorkerScheduleDeps {
	config: Config;
	db: Db;
	clock: Clock;
	logger: Logger;
	fileStore: FileStore;
	workerId: string;
	/** The data folder's pseudonym key: retention pseudonymises erased guests' audit rows with it. */
	pseudonymKey: Buffer;
	/** The bot's one send budget (in the database, shared by every worker): broadcasts here, notices and edits through `queue`. */
	budget: BotBudget;
	/** The budget with a way to wait: the sales-group client's calls wait for their places through it. */
	sendPacing: SendPacing;
	/** The guest notices' own client: status edits go through it, the pacer taking each edit's place itself. */
	statusApi: TelegramApi;
	bot: BotIdentity & { api: TelegramApi };
	updatesLease: Pick<UpdatesLeaseKeeper, 'tick'>;
	queue: QueueDeps;
	jobLoop: Pick<JobLoop, 'busySlots'>;
	/** The settings in force (console Settings, else the environment), read through a short cache. */
	runtime: RuntimeSettings;
	/** The image provider settings this worker draws with (changed only after their model check). */
	providers: ProviderSettingsInUse;
	/** The API keys in force (console Settings, else the environment). */
	secrets: () => Promise<SecretsInForce>;
	/** Takes a bot token replaced on the console (cloud mode only). */
	botToken?: RuntimeApplyDeps['botToken'];
	/** Aborted when the worker begins to stop: outboxes and redraws end their pass early. */
	stopping: AbortSignal;
}

/** One task of the schedule, with its period and fleet rules from the table. */
export function scheduledTask(name: WorkerTaskName, run: () => Promise<void>): ScheduledTask {
	return { name, ...WORKER_SCHEDULE[name], run };
}

/** The worker's whole schedule, in the table's order, each task with its body. */
export function workerSchedule(deps: WorkerScheduleDeps): ScheduledTask[] {
	const bodies = taskBodies(deps);
	return (Object.keys(WORKER_SCHEDULE) as WorkerTaskName[]).map((name) => scheduledTask(name, bodies[name]));
}

/** Each task's body, built once: some keep state between passes (cooldowns, pacers, counters). */
function taskBodies(deps: WorkerScheduleDeps): Record<WorkerTaskName, () => Promise<void>> {
	const { config, db, clock, logger, fileStore, queue, stopping } = deps;
	const api = deps.bot.api;
	const isStopping = () => stopping.aborted;
	const lifecycle = { db, clock, logger, fileStore };
	const backup = { db, clock, logger, database: config.database, backupDir: resolveBackupDir(config) };
	const leads = createLeadsTaskDeps(config, db, clock, logger, deps.sendPacing);
	// The sales group and its language as they are now: a changed group gets the next new card.
	const liveLeads = () => leadsInForce(leads, deps.runtime);
	// Alerts are the queue's outbox (the notices' client, no transformer): each send takes its own place.
	const liveAdmins = async () => {
		const values = await deps.runtime.read();
		return { ...queue.alerts, adminIds: values.adminIds, threshold: values.quotaWarning };
	};
	const notices = queue.notices;
	// One cooldown per worker for the guests' chats: a 429 on a broadcast quiets that chat's notices too.
	const broadcasts = createBroadcastDeliveryDeps(config, {
		db,
		clock,
		logger,
		budget: deps.budget,
		cooldown: notices.cooldown,
		fileStore
	});
	// statusApi is the notices' client, not bot.api: the pacer takes each edit's place itself, and
	// bot.api's calls wait for a place of their own (send-budget-api.ts) — one edit takes one place.
	const statuses = {
		db,
		clock,
		logger,
		api: deps.statusApi,
		slots: config.WORKER_SLOTS,
		pacer: new EditPacer(notices.budget),
		cooldown: notices.cooldown,
		crashPoint: queue.crashPoint
	};
	const deadlines = {
		db,
		clock,
		logger,
		delayNoticeMs: config.JOB_DELAY_NOTICE_MINUTES * MINUTE,
		hardDeadlineMs: config.JOB_HARD_DEADLINE_MINUTES * MINUTE
	};
	return {
		'task-runs-prune': async () => void (await pruneTaskRuns(db, clock)),
		heartbeat: () => recordHeartbeat(db, clock, deps.workerId, deps.jobLoop.busySlots),
		'send-budget-holds': async () =>
			void (await releaseDeadHolds({ db, clock, logger, budget: deps.budget, self: deps.workerId })),
		'ttl-sweep': () => runTtlSweep({ ...lifecycle, ttlHours: config.PHOTO_TTL_HOURS }),
		retention: () =>
			runRetention({
				...lifecycle,
				dbPath: config.dbPath,
				pseudonymKey: deps.pseudonymKey,
				retentionDays: config.GUEST_RETENTION_DAYS
			}),
		backup: async () => void (await runBackupIfDue(backup)),
		'log-prune': () => pruneLogs({ db, clock, logger }),
		'leads-publish': async () => void (await publishPendingLeads(await liveLeads(), isStopping)),
		'leads-repeats': async () => void (await notifyPendingRepeats(await liveLeads())),
		'leads-card-edits': async () => void (await applyPendingCardEdits(await liveLeads())),
		'leads-reminders': async () => void (await remindAboutIdleLeads(await liveLeads())),
		'leads-digest': async () => void (await postDailyDigest(await liveLeads())),
		'leads-retention': async () => void (await eraseExpiredLeadData(await liveLeads())),
		'broadcasts-deliver': async () => void (await deliverBroadcasts(broadcasts, isStopping)),
		'broadcasts-retention': async () => void (await eraseExpiredBroadcasts(db, clock, fileStore)),
		'session-timeouts': sessionTimeoutsPass({ db, clock, logger, config, api }),
		'bot-username': botUsernamePublisher({ db, clock, logger, bot: deps.bot }),
		'telegram-updates-lease': () => deps.updatesLease.tick(),
		'guest-notices': async () => void (await deliverGuestNotices(notices, { shouldStop: isStopping })),
		'guest-status': async () => void (await refreshGuestStatuses(statuses)),
		'sticker-redraws': () => runStickerRedraws(queue, stopping),
		'job-deadlines': async () => {
			const { noticed, failed } = await enforceJobDeadlines(deadlines);
			if (noticed.length || failed.length) logger.info({ noticed, failed }, 'job deadlines applied');
		},
		'model-check': async () => void (await runModelCheck(deps.providers.config, await liveAdmins())),
		'rpd-warning': async () => void (await warnAdminsAboutDailyRequests(await liveAdmins())),
		'admin-alerts': async () => void (await deliverAdminAlerts(queue.alerts)),
		'admin-alerts-retention': () => pruneEndedAlerts(db, clock.now()),
		'runtime-settings': () =>
			applyRuntimeSettings({
				db,
				clock,
				logger,
				runtime: deps.runtime,
				secrets: deps.secrets,
				providers: deps.providers,
				parts: { queue, statuses },
				botToken: deps.botToken
			})
	};
}
