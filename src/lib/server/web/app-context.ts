import { getConfig, type Config } from '../config/config.ts';
import { announceDemoMode } from '../config/demo-mode.ts';
import { readVersion } from '../config/version.ts';
import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { openFileStore } from '../files/open-file-store.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { databaseLabel, prepareDatabase } from '../db/startup.ts';
import { seedCatalogueAtStart } from '../events/seed-at-start.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { logEntryWriterFor } from '../log/log-entry-writer.ts';
import { LogSink } from '../log/log-sink.ts';
import { loadPseudonymKey } from '../lifecycle/pseudonym.ts';
import { acquireInstanceLock } from '../system/instance-lock.ts';
import { systemClock, type Clock } from '../time/clock.ts';
import { registerWebProcess } from './web-registration.ts';
import { RuntimeSettings } from '../settings/runtime-settings.ts';

/** What every request handler of the web process needs; built once in the `init` hook. */
export interface AppContext {
	config: Config;
	db: Db;
	clock: Clock;
	logger: Logger;
	version: string;
	/** Guest files: the process's one store (FILE_STORE), opened at start. */
	fileStore: FileStore;
	/** The settings in force (console Settings, else the environment), read through a short cache. */
	runtime: RuntimeSettings;
}

let context: AppContext | undefined;

export async function startAppContext(): Promise<AppContext> {
	if (context) return context;
	const config = getConfig();
	// Warnings and errors also go to log_entries for the console's Logs page (once the table exists),
	// without guests' texts and with their Telegram ids pseudonymised.
	const logSink = new LogSink('web', { pseudonymKey: loadPseudonymKey(config.dataDir) });
	const logger = createLogger('web', config.LOG_LEVEL, { warningsTo: logSink });
	announceDemoMode(config, logger);
	// A bucket that is missing or refuses the credentials stops the start here, before any request.
	const fileStore = await openFileStore(config);
	// DATA_DIR/web.lock while this process runs: one web process per data dir, and a restore
	// refuses to swap the database under it. A crash leaves a stale lock the next start takes over.
	const lock = acquireInstanceLock(config.dataDir, 'web');
	process.once('exit', () => lock.release());
	const db = await prepareDatabase(config, systemClock, logger);
	await seedCatalogueAtStart(db, systemClock, logger);
	const version = readVersion(config.projectRoot);
	// On a database a fleet shares, the restore finds this process by its row in worker_processes
	// (web processes on other hosts have no web.lock it could read); otherwise web.lock tells it.
	const registration = dialectOf(db).sharedServer
		? await registerWebProcess({ db, clock: systemClock, logger, version })
		: null;
	logSink.attach(logEntryWriterFor(config.database, db), { workerId: registration?.id });
	// adapter-node's graceful shutdown (the server has closed): record the stop, store what is
	// still queued, and close the pool, whose idle PostgreSQL connections would keep the process up.
	process.once('sveltekit:shutdown', () => {
		lock.release();
		void (async () => {
			await registration?.stop();
			logSink.close();
			await db.$disconnect();
		})();
	});
	context = {
		config,
		db,
		clock: systemClock,
		logger,
		version,
		fileStore,
		runtime: new RuntimeSettings({ db, clock: systemClock, config })
	};
	logger.info(
		{ db: databaseLabel(config.database), version: context.version, files: fileStore.kind },
		'web process ready'
	);
	return context;
}

export function appContext(): AppContext {
	if (!context) throw new Error('the web process has not finished starting');
	return context;
}
