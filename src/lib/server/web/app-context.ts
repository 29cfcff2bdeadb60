import { getConfig, type Config } from '../config/config.ts';
import { readVersion } from '../config/version.ts';
import type { Db } from '../db/client.ts';
import { prepareDatabase } from '../db/startup.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { systemClock, type Clock } from '../time/clock.ts';

/** What every request handler of the web process needs; built once in the `init` hook. */
export interface AppContext {
	config: Config;
	db: Db;
	clock: Clock;
	logger: Logger;
	version: string;
}

let context: AppContext | undefined;

export async function startAppContext(): Promise<AppContext> {
	if (context) return context;
	const config = getConfig();
	const logger = createLogger('web', config.LOG_LEVEL);
	const db = await prepareDatabase(config, systemClock, logger);
	context = { config, db, clock: systemClock, logger, version: readVersion(config.projectRoot) };
	logger.info({ db: config.dbPath, version: context.version }, 'web process ready');
	return context;
}

export function appContext(): AppContext {
	if (!context) throw new Error('the web process has not finished starting');
	return context;
}
