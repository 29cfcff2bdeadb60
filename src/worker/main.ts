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
import { markWorkerStopped, registerWorker } from '../lib/server/workers/worker-registry.ts';
import { createBot } from './bot/index.ts';
import { BotRunner } from './bot/runner.ts';
import { UpdatesLeaseKeeper } from './bot/updates-lease.ts';
import { BotTokenSwitch, botTokenToStartWith } from './bot/bot-token-switch.ts';
import { BotTokenInForce } from '../lib/server/telegram/bot-token.ts';
import { alertAdmins } from '../lib/server/telegram/admin-alerts.ts';
import { dialectOf } from '../lib/server/db/dialect/dialect.ts';
import { seedCatalogueAtStart } from '../lib/server/events/seed-at-start.ts';
import { acquireInstanceLock, InstanceLockError } from '../lib/server/system/instance-lock.ts';
import { Scheduler } from './scheduler.ts';
import { MessageHistoryWriter } from '../lib/server/messages/history-writer.ts';
import { RuntimeSettings } from '../lib/server/settings/runtime-settings.ts';
import { ProviderSettingsInUse } from './tasks/runtime-settings.task.ts';
import { loadSettingsSecretKey } from '../lib/server/settings/secret-box.ts';
import { keepRetiredBotToken } from '../lib/server/settings/retired-bots.ts';
import { readSecretsInForce } from '../lib/server/settings/console-secrets.ts';
import type { Config } from '../lib/server/config/config.ts';
import { taskPeriodClaims } from '../lib/server/fleet/task-periods.ts';
import { workerSchedule } from './schedule.ts';
import { BotBudget } from '../lib/server/telegram/bot-budget.ts';
import { releaseDeadHolds } from '../lib/server/telegram/dead-holds.ts';
import { createCrashPoint, createPlaceStall, sendLimitsFor } from '../lib/server/jobs/run/crash-points.ts';
import { JobLoop } from './queue/job-loop.ts';
import { createNoticeApi, createQueueDeps } from './queue/start-queue.ts';
import { WorkerShutdown } from '../lib/server/jobs/job-errors.ts';
import { LogSink } from '../lib/server/log/log-sink.ts';
import { loadPseudonymKey } from '../lib/server/lifecycle/pseudonym.ts';
import { logEntryWriterFor } from '../lib/server/log/log-entry-writer.ts';

/** How long shutdown may take before the process exits anyway (systemd gives 30 s). */
const SHUTDOWN_GRACE_MS = 25_000;
/** In-flight jobs get this long to finish on shutdown before they are released back to the queue. */
const JOB_STOP_GRACE_MS = 15_000;

// ─── Start: config → lock → database → registry → bot → queue → schedule ───────────────────────
async function main(): Promise<void> {
	const envConfig = getConfig();
	// Warnings and errors also go to log_entries for the console's Logs page (once the table exists),
	// without guests' texts and with their Telegram ids pseudonymised.
	const pseudonymKey = loadPseudonymKey(envConfig.dataDir);
	const logSink = new LogSink('worker', { pseudonymKey });
	const logger = createLogger('worker', envConfig.LOG_LEVEL, { warningsTo: logSink });
	announceDemoMode(envConfig, logger);
	// A bucket that is missing or refuses the credentials stops the start before any work is taken.
	const fileStore = await openFileStore(envConfig);
	const lock = acquireInstanceLock(envConfig.dataDir);
	const clock = systemClock;
	const db = await prepareDatabase(envConfig, clock, logger);
	await seedCatalogueAtStart(db, clock, logger);
	const version = readVersion(envConfig.projectRoot);
	const workerId = `${hostname()}:${process.pid}:${Date.now()}`;
	await registerWorker(db, clock, {
		id: workerId,
		pid: process.pid,
		hostname: hostname(),
		version,
		slots: envConfig.WORKER_SLOTS
	});
	logSink.attach(logEntryWriterFor(envConfig.database, db), { workerId });

	// Secrets replaced on the console (Settings), sealed with the settings key: the API keys and a
	// bot token replaced while the worker runs are applied by the runtime-settings task.
	const secretKey = loadSettingsSecretKey(envConfig, clock);
	const secrets = () => readSecretsInForce(db, secretKey, envConfig);
	// The token of a bot given up for another one is kept for /forget (retired-bots.ts): at a switch
	// while running, and at a start with the console's token of another bot than the environment's.
	const retireBot = (retired: { username: string; token: string }) =>
		keepRetiredBotToken(db, clock, secretKey, retired);
	const config = withBotTokenInForce(
		envConfig,
		envConfig.telegram.mode === 'cloud'
			? await botTokenToStartWith(
					{ db, clock, logger, apiRoot: envConfig.telegram.apiRoot, retireBot },
					envConfig.telegram.token,
					(await secrets()).telegramBotToken
				)
			: undefined
	);

	// Nothing runs on a timer until everything the tasks use is built: one schedule, added at the end.
	// The bot's one send budget (in the database, shared by every worker): notices, status edits,
	// broadcasts, sales-group cards and the bot's own replies all take their places in it.
	const budget = new BotBudget(db, clock, workerId, sendLimitsFor(), createPlaceStall());
	// A worker killed while holding places (this folder's previous launch, whose stale lock we took
	// over, or any launch the registry calls dead) frees its chats now, not after their 35 s.
	const gone = lock.takenOverFrom === null ? null : { hostname: hostname(), pid: lock.takenOverFrom };
	await releaseDeadHolds({ db, clock, logger, budget, self: workerId }, gone);
	const sendPacing = { budget, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
	// The guest notices' own client (no auto-retry); the bot's message history records its sends too.
	const noticeApi = createNoticeApi(config);
	// The settings in force (console Settings, else the environment): one reader for the whole worker.
	const runtime = new RuntimeSettings({ db, clock, config });
	// The bot's message history, written behind its replies: stop waits for it before the database closes.
	const history = new MessageHistoryWriter({ db, logger, pseudonymKey });
	const botDeps = { db, clock, logger, config, fileStore, sendPacing, runtime, history };
	const bot = createBot(config.telegram, botDeps, [noticeApi]);
	// Updates of different chats are handled side by side, one chat's in order (update-poll.ts).
	const botRunner = new BotRunner(
		bot,
		{ db, clock, logger, concurrency: config.BOT_UPDATE_CONCURRENCY, crashPoint: createCrashPoint() },
		config.telegram
	);
	// One getUpdates consumer per bot: only the holder of the updates lease polls. On a database no
	// fleet shares this is the only worker (the data folder's instance lock), so it takes the lease at once.
	const updatesLease = new UpdatesLeaseKeeper({
		db,
		clock,
		logger,
		poller: botRunner,
		holder: workerId,
		sole: !dialectOf(db).sharedServer
	});
	const queueDeps = await createQueueDeps({
		config,
		db,
		clock,
		logger,
		api: bot.api,
		workerId,
		noticeApi,
		budget,
		fileStore
	});
	// The crashed launch's jobs (gone, as for the send-budget places) are claimed again now, not after their lease.
	const jobLoop = new JobLoop(queueDeps, gone);
	jobLoop.start();
	// A bot token replaced on the console: checked with getMe, then the updates are handed to a new bot.
	const botTokenSwitch = new BotTokenSwitch({
		db,
		clock,
		logger,
		apiRoot: config.telegram.apiRoot,
		tokenInForce: config.telegram.tokenInForce,
		runner: botRunner,
		// The notices' client already records into the message history: only the new bot's own api is added.
		buildBot: (token) => createBot({ ...config.telegram, token }, botDeps),
		switched: (me) => (queueDeps.botUsername = async () => me.username),
		alertAdmins: async (text) => alertAdmins(queueDeps.alerts, (await runtime.read()).adminIds, text),
		retireBot
	});
	// Aborted first thing on stop: outboxes and redraws end their pass, in-flight draws are abandoned.
	const stopping = new AbortController();
	// Sweeps, retention, digests and backups run once per period across all workers (the claims).
	const scheduler = new Scheduler(logger, taskPeriodClaims(db, clock, workerId), () => clock.now().getTime());
	const schedule = workerSchedule({
		config,
		db,
		clock,
		logger,
		fileStore,
		workerId,
		pseudonymKey,
		budget,
		sendPacing,
		statusApi: noticeApi,
		bot: currentBot(botRunner),
		updatesLease,
		queue: queueDeps,
		jobLoop,
		runtime,
		secrets,
		providers: new ProviderSettingsInUse(config),
		botToken: config.telegram.mode === 'cloud' ? botTokenSwitch : undefined,
		stopping: stopping.signal
	});
	for (const task of schedule) scheduler.add(task);
	logger.info(
		{ workerId, pid: process.pid, version, telegram: config.telegram.mode, apiRoot: config.telegram.apiRoot },
		'worker started'
	);

	// ─── Stop: one path for SIGINT and SIGTERM, in reverse order of start ──────────────────────
	const stop = async (signal: string) => {
		if (stopping.signal.aborted) return;
		stopping.abort(new WorkerShutdown());
		logger.info({ signal }, 'worker stopping');
		const force = setTimeout(() => {
			logger.error('shutdown took too long; exiting anyway');
			logSink.close();
			process.exit(1);
		}, SHUTDOWN_GRACE_MS);
		await jobLoop.stop(JOB_STOP_GRACE_MS);
		await updatesLease.stop();
		await scheduler.stop();
		// Nothing sends any more: what the history still has to write lands before the database closes.
		await history.idle();
		await markWorkerStopped(db, clock, workerId).catch((error: unknown) =>
			logger.error({ err: error }, 'could not mark the worker stopped')
		);
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

/**
 * The bot token in force at this start: the console's replacement when one is set and Telegram
 * does not refuse it (never in demo mode, which talks to the emulator), else TELEGRAM_BOT_TOKEN. getUpdates offsets are Telegram's,
 * per bot: the same bot under a new token resumes where it left off (nothing confirmed is lost),
 * another bot starts with its own queue. A token replaced later is taken by BotTokenSwitch.
 */
function withBotTokenInForce(
	config: Config,
	consoleToken: string | undefined
): Config & { telegram: { tokenInForce: BotTokenInForce } } {
	const token = config.telegram.mode === 'cloud' && consoleToken ? consoleToken : config.telegram.token;
	// Every Telegram client built from this config reads the token in force at each call (bot-token.ts).
	return { ...config, telegram: { ...config.telegram, token, tokenInForce: new BotTokenInForce(token) } };
}

/** The bot as the scheduled tasks see it: whichever bot the runner has now (a token switch replaces it). */
function currentBot(runner: BotRunner) {
	return {
		isInited: () => runner.bot.isInited(),
		get botInfo() {
			return runner.bot.botInfo;
		},
		get api() {
			return runner.bot.api;
		}
	};
}

main().catch((error: unknown) => {
	if (
		error instanceof ConfigError ||
		error instanceof MigrationError ||
		error instanceof InstanceLockError ||
		error instanceof FileStoreUnusable
	) {
		console.error(`worker refuses to start: ${error.message}`);
	} else {
		console.error('worker failed to start:', error);
	}
	process.exit(1);
});
