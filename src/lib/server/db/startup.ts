import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { openDatabase, openPostgresDatabase, type Db } from './client.ts';
import { POSTGRES_MIGRATIONS_DIR } from './migrations/migration-files.ts';
import { migratePostgres } from './migrations/pg-migrate.ts';
import { migrateSafely } from './migrations/safe-migrate.ts';
import { describeTarget } from './postgres/connect-error.ts';

/**
 * What both processes do before anything else: bring the schema up to date (safely) and open the
 * client. A MigrationError propagates: the caller prints it and refuses to start. On SQLite that
 * is the backup-and-trial safety net; on PostgreSQL one transaction under an advisory lock (an
 * unreachable server or refused credentials are MigrationErrors too, with one line saying which).
 */
export async function prepareDatabase(
	config: Pick<Config, 'database' | 'projectRoot'>,
	clock: Clock,
	logger: Logger
): Promise<Db> {
	const { database } = config;
	if (database.engine === 'postgresql') {
		const result = await migratePostgres({
			url: database.url,
			migrationsDir: path.join(config.projectRoot, POSTGRES_MIGRATIONS_DIR),
			clock
		});
		if (result.applied.length > 0)
			logger.info({ applied: result.applied, db: databaseLabel(database) }, 'database migrated');
		return openPostgresDatabase(database.url);
	}
	const result = await migrateSafely({
		dbPath: database.path,
		migrationsDir: path.join(config.projectRoot, 'prisma', 'migrations'),
		clock
	});
	if (result.applied.length > 0) {
		logger.info({ applied: result.applied, backup: result.backupPath ?? null, db: database.path }, 'database migrated');
	}
	return openDatabase(database.path);
}

/** The database as a log line names it: the SQLite file's path, or PostgreSQL's host:port/database (never the password). */
export function databaseLabel(database: Config['database']): string {
	if (database.engine === 'sqlite') return database.path;
	const { hostPort, database: name } = describeTarget(database.url);
	return `postgresql ${hostPort}/${name}`;
}
