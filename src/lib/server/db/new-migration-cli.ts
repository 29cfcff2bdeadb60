import { findProjectRoot } from '../config/project-root.ts';
import { systemClock } from '../time/clock.ts';
import { createMigration, postgresTarget, sqliteTarget, type NewMigrationResult } from './migrations/new-migration.ts';
import { PgBinariesMissing, startPgCluster } from './migrations/throwaway-pg-cluster.ts';

// npm run db:new-migration -- <name>
// Writes the next migration for both engines. PostgreSQL's engine replays the migrations on a
// server: SHADOW_DATABASE_URL if set, otherwise a throwaway cluster of Debian's PostgreSQL.
const name = process.argv[2];
if (!name) {
	console.error('usage: npm run db:new-migration -- <name>   (e.g. add_kiosks)');
	process.exit(2);
}
const cluster = process.env.SHADOW_DATABASE_URL
	? undefined
	: await startPgCluster().catch((error: Error) =>
			fail(
				error instanceof PgBinariesMissing
					? new Error(
							`${error.message}, or set SHADOW_DATABASE_URL to a PostgreSQL server it may create scratch databases on`
						)
					: error
			)
		);
try {
	const root = findProjectRoot();
	const shadowUrl = process.env.SHADOW_DATABASE_URL ?? cluster!.url;
	const [sqlite, postgres] = await createMigration(
		[sqliteTarget(root), postgresTarget(root, shadowUrl)],
		name,
		systemClock
	);
	report('SQLite', sqlite);
	report('PostgreSQL', postgres);
	await cluster?.stop();
	process.exit(0);
} catch (error) {
	await cluster?.stop();
	fail(error);
}

function report(engine: string, result: NewMigrationResult | undefined): void {
	if (result?.directory) console.log(`${engine}: wrote ${result.directory}/migration.sql\n\n${result.sql}`);
	else console.log(`${engine}: schema.prisma matches the migrations, nothing to write`);
}

function fail(error: unknown): never {
	console.error(`could not create the migration: ${(error as Error).message}`);
	process.exit(1);
}
