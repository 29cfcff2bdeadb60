import path from 'node:path';
import { ConfigError, getConfig } from '../config/config.ts';
import { systemClock } from '../time/clock.ts';
import { POSTGRES_MIGRATIONS_DIR } from './migrations/migration-files.ts';
import { migratePostgres } from './migrations/pg-migrate.ts';
import { MigrationError, migrateSafely } from './migrations/safe-migrate.ts';
import { describeTarget } from './postgres/connect-error.ts';

// npm run db:migrate — the same migration both processes run at start-up: the SQLite file at
// DB_PATH with its safety net, or the PostgreSQL database of DATABASE_URL.
try {
	const config = getConfig();
	const { database } = config;
	if (database.engine === 'postgresql') {
		const { hostPort, database: name } = describeTarget(database.url);
		const result = await migratePostgres({
			url: database.url,
			migrationsDir: path.join(config.projectRoot, POSTGRES_MIGRATIONS_DIR),
			clock: systemClock
		});
		console.log(
			`postgresql ${hostPort}/${name}: ${result.applied.length === 0 ? 'up to date' : `applied ${result.applied.join(', ')}`}`
		);
	} else {
		const result = await migrateSafely({
			dbPath: database.path,
			migrationsDir: path.join(config.projectRoot, 'prisma', 'migrations'),
			clock: systemClock
		});
		if (result.applied.length === 0) console.log(`${database.path}: up to date`);
		else
			console.log(
				`${database.path}: applied ${result.applied.join(', ')}${result.backupPath ? ` (backup: ${result.backupPath})` : ''}`
			);
	}
} catch (error) {
	if (error instanceof ConfigError || error instanceof MigrationError) {
		console.error(error.message);
		process.exit(1);
	}
	throw error;
}
