import path from 'node:path';
import { ConfigError, getConfig } from '../config/config.ts';
import { systemClock } from '../time/clock.ts';
import { MigrationError, migrateSafely } from './migrations/safe-migrate.ts';

// npm run db:migrate — the same safe migration both processes run at start-up, for the DB at DB_PATH.
try {
	const config = getConfig();
	const result = await migrateSafely({ dbPath: config.dbPath, migrationsDir: path.join(config.projectRoot, 'prisma', 'migrations'), clock: systemClock });
	if (result.applied.length === 0) console.log(`${config.dbPath}: up to date`);
	else console.log(`${config.dbPath}: applied ${result.applied.join(', ')}${result.backupPath ? ` (backup: ${result.backupPath})` : ''}`);
} catch (error) {
	if (error instanceof ConfigError || error instanceof MigrationError) {
		console.error(error.message);
		process.exit(1);
	}
	throw error;
}
