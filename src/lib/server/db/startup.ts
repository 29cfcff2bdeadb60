import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { openDatabase, type Db } from './client.ts';
import { migrateSafely } from './migrations/safe-migrate.ts';

/**
 * What both processes do before anything else: bring the schema up to date (safely) and open the
 * client. A MigrationError propagates: the caller prints it and refuses to start.
 */
export async function prepareDatabase(config: Pick<Config, 'dbPath' | 'projectRoot'>, clock: Clock, logger: Logger): Promise<Db> {
	const result = await migrateSafely({
		dbPath: config.dbPath,
		migrationsDir: path.join(config.projectRoot, 'prisma', 'migrations'),
		clock
	});
	if (result.applied.length > 0) {
		logger.info({ applied: result.applied, backup: result.backupPath ?? null, db: config.dbPath }, 'database migrated');
	}
	return openDatabase(config.dbPath);
}
