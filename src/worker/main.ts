import { hostname } from 'node:os';
import { ConfigError, getConfig } from '../lib/server/config/config.ts';
import { readVersion } from '../lib/server/config/version.ts';
import { announceDemoMode } from '../lib/server/config/demo-mode.ts';
import { prepareDatabase } from '../lib/server/db/startup.ts';
import { MigrationError } from '../lib/server/db/migrations/safe-migrate.ts';
import { openFileStore } from '../lib/server/files/open-file-store.ts';
import { FileStoreUnusable } from '../lib/server/files/file-store.ts';
import { createLogger } from '../lib/server/log/logger.ts';
import { systemClock } from '../lib/server/time/clock.ts';
import { HEARTBEAT_EVERY_MS, markWorkerStopped, recordHeartbeat, registerWorker } from '../lib/server/workers/worker-registry.ts';
import { createBot } from './bot/index.ts';
import { BotRunner } from './bot/runner.ts';
import { UPDATES_LEASE_TICK_MS, UpdatesLeaseKeeper } from './bot/updates-lease.ts';
import { dialectOf } from '../lib/server/db/dialect/dialect.ts';
import { acquireInstanceLock, InstanceLockError } from '../lib/server/system/instance-lock.ts';
import { Scheduler } from './scheduler.ts';
import { pruneTaskRuns, taskPeriodClaims } from '../lib/server/fleet/task-periods.ts';
import { HOUR } from '../lib/server/time/clock.ts';
import { scheduleGuestTasks } from './tasks/session-timeouts-schedule.ts';
import { scheduleLifecycleTasks } from './tasks/retention-schedule.ts';
import { createLeadsTaskDeps, scheduleLeadsTasks } from './tasks/leads-schedule.ts';
import { scheduleBroadcastTasks } from './tasks/broadcasts-schedule.ts';
import { BotBudget } from '../lib/server/telegram/bot-budget.ts';
import { JobLoop } from './queue/job-loop.ts';
import { createQueueDeps } from './queue/start-queue.ts';
import { scheduleGenerationTasks } from './queue/generation-schedule.ts';
import { WorkerShutdown } from '../lib/server/jobs/job-errors.ts';
import { LogSink } from '../lib/server/log/log-sink.ts';
import { loadPseudonymKey } from '../lib/server/lifecycle/pseudonym.ts';
import { logEntryWriterFor } from '../lib/server/log/log-entry-writer.ts';
import { logPruneTask } from './tasks/log-prune.task.ts';
import { createNoticeApi } from './queue/start-queue.ts';

/** How long shutdown may take before the process exits anyway (systemd gives 30 s). */
const SHUTDOWN_GRACE_MS = 25_000;
/** In-flight jobs get this long to finish on shutdown before they are released back to the queue. */
const JOB_STOP_GRACE_MS = 15_000;

// ─── Start: config → lock → database → registry → tasks → bot ──────────────────────────────────
async function main(): Promise<void> {
	const config = getConfig();
	// Warnings and errors also go to log_entries for the console's Logs page (once the table exists),
	// without guests' texts and with their Telegram ids pseudonymised.
	const logSink = new LogSink('worker', { pseudonymKey: loadPseudonymKey(config.dataDir) });
	const logger = createLogger('worker', config.LOG_LEVEL, { warningsTo: logSink });
	announceDemoMode(config, logger);
	// A bucket that is missing or refuses the credentials stops the start before any work is taken.
	const fileStore = await openFileStore(config);
	const lock = acquireInstanceLock(config.dataDir);
	const clock = systemClock;
	const db = await prepareDatabase(config, clock, logger);
	const version = readVersion(config.projectRoot);
	const workerId = `${hostname()}:${process.pid}:${Date.now()}`;
	await registerWorker(db, clock, { id: workerId, pid: process.pid, hostname: hostname(), version, slots: config.WORKER_SLOTS });
	logSink.attach(logEntryWriterFor(config.database, db), { workerId });

	let jobLoop: JobLoop | undefined;
	// Declared before any task is scheduled: tasks that run at start (the outboxes) read it through a
	// closure, and the first of them runs during the awaits below, long before the stop path is set up.
	let stopping = false;
	// Sweeps, retention, digests and backups run once per period across all workers (the claims).
	const scheduler = new Scheduler(logger, taskPeriodClaims(db, clock, workerId), () => clock.now().getTime());
	scheduler.add({ name: 'task-runs-prune', everyMs: HOUR, runAtStart: true, oncePerPeriod: true, run: async () => void (await pruneTaskRuns(db, clock)) });
	scheduler.add({ name: 'heartbeat', everyMs: HEARTBEAT_EVERY_MS, runAtStart: true, run: () => recordHeartbeat(db, clock, workerId, jobLoop?.busySlots ?? 0) });
	scheduleLifecycleTasks(scheduler, config, db, clock, logger, fileStore);
	scheduler.add(logPruneTask({ db, clock, logger }));
	// The bot's one send budget (in the database, shared by every worker): notices, status edits,
	// broadcasts, sales-group cards and the bot's own replies all take their places in it.
	const budget = new BotBudget(db, clock);
	const sendPacing = { budget, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
	scheduleLeadsTasks(scheduler, createLeadsTaskDeps(config, db, clock, logger, sendPacing), () => stopping);
	scheduleBroadcastTasks(scheduler, config, { db, clock, logger, budget, fileStore }, () => stopping);

	// The guest notices' own client (no auto-retry); the bot's message history records its sends too.
	const noticeApi = createNoticeApi(config);
	const bot = createBot(config.telegram, { db, clock, logger, config, fileStore, sendPacing }, [noticeApi]);
	scheduleGuestTasks(scheduler, { db, clock, logger, config, bot });
	const botRunner = new BotRunner(bot, logger, config.telegram);
	// One getUpdates consumer per bot: only the holder of the updates lease polls. On SQLite this is
	// the only worker (the data folder's instance lock), so it takes the lease at once.
	const updatesLease = new UpdatesLeaseKeeper({ db, clock, logger, poller: botRunner, holder: workerId, sole: dialectOf(db).name === 'sqlite' });
	scheduler.add({ name: 'telegram-updates-lease', everyMs: UPDATES_LEASE_TICK_MS, runAtStart: true, run: () => updatesLease.tick() });
	const queueDeps = await createQueueDeps({ config, db, clock, logger, api: bot.api, workerId, noticeApi, budget, fileStore });
	jobLoop = new JobLoop(queueDeps);
	jobLoop.start();
	const stopRedraws = new AbortController();
	scheduleGenerationTasks(scheduler, { config, db, clock, logger, api: bot.api, statusApi: noticeApi, queue: queueDeps, stopping: stopRedraws.signal });
	logger.info({ workerId, pid: process.pid, version, telegram: config.telegram.mode, apiRoot: config.telegram.apiRoot }, 'worker started');

	// ─── Stop: one path for SIGINT and SIGTERM, in reverse order of start ──────────────────────
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		logger.info({ signal }, 'worker stopping');
		const force = setTimeout(() => {
			logger.error('shutdown took too long; exiting anyway');
			logSink.close();
			process.exit(1);
		}, SHUTDOWN_GRACE_MS);
		stopRedraws.abort(new WorkerShutdown());
		await jobLoop?.stop(JOB_STOP_GRACE_MS);
		await updatesLease.stop();
		await scheduler.stop();
		await markWorkerStopped(db, clock, workerId).catch((error: unknown) => logger.error({ err: error }, 'could not mark the worker stopped'));
		await db.$disconnect();
		lock.release();
		clearTimeout(force);
		logger.info('worker stopped');
		logSink.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
	if (error instanceof ConfigError || error instanceof MigrationError || error instanceof InstanceLockError || error instanceof FileStoreUnusable) {
		console.error(`worker refuses to start: ${error.message}`);
	} else {
		console.error('worker failed to start:', error);
	}
	process.exit(1);
});
