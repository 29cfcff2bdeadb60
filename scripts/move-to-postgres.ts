import { moveToPostgres } from '../src/lib/server/db/move/move.ts';
import { MoveError } from '../src/lib/server/db/move/sqlite-source.ts';
import { ConfigError, parseConfig } from '../src/lib/server/config/config.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

async function main(argv: string[]): Promise<number> {
	// Both variables are set on purpose here (the product refuses that): DB_PATH is read, DATABASE_URL written.
	const url = process.env.DATABASE_URL;
	if (!url) throw new MoveError('set DATABASE_URL to the PostgreSQL target (DB_PATH names the SQLite file to read)');
	const config = parseConfig({ ...process.env, DATABASE_URL: undefined });
	const counts = await moveToPostgres({
		dbPath: config.dbPath,
		dataDir: config.dataDir,
		url,
		projectRoot: config.projectRoot,
		clock: systemClock,
		replace: argv.includes('--replace')
	});
	console.log(`${'table'.padEnd(28)} ${'sqlite'.padStart(8)} ${'postgres'.padStart(8)}`);
	for (const c of counts)
		console.log(`${c.table.padEnd(28)} ${String(c.source).padStart(8)} ${String(c.target).padStart(8)}`);
	const wrong = counts.filter((c) => c.source !== c.target);
	if (wrong.length > 0)
		return (
			console.error(
				`move failed: counts differ in ${wrong.map((c) => c.table).join(', ')}; nothing was written (rolled back)`
			),
			1
		);
	console.log('move ok: every count matches; start the services with DATABASE_URL set');
	return 0;
}

main(process.argv.slice(2))
	.then((code) => process.exit(code))
	.catch((error: unknown) => {
		if (error instanceof MoveError || error instanceof ConfigError) console.error(`move refused: ${error.message}`);
		else console.error(`move failed: ${String((error as Error)?.stack ?? error)}`);
		process.exit(1);
	});
