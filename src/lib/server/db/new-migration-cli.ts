import { findProjectRoot } from '../config/project-root.ts';
import { systemClock } from '../time/clock.ts';
import { createMigration } from './migrations/new-migration.ts';

// npm run db:new-migration -- <name>
const name = process.argv[2];
if (!name) {
	console.error('usage: npm run db:new-migration -- <name>   (e.g. add_kiosks)');
	process.exit(2);
}
try {
	const result = await createMigration(findProjectRoot(), name, systemClock);
	console.log(result.directory ? `wrote ${result.directory}/migration.sql\n\n${result.sql}` : 'schema.prisma matches the migrations: nothing to write');
	process.exit(0);
} catch (error) {
	console.error(`could not create the migration: ${(error as Error).message}`);
	process.exit(1);
}
