import { z } from 'zod';
import { replayAfterPointInTimeRecovery } from '../src/lib/server/backup/pg-erasure-replay.ts';
import { RestoreError } from '../src/lib/server/backup/restore.ts';
import { ConfigError, getConfig } from '../src/lib/server/config/config.ts';
import { loadPseudonymKey } from '../src/lib/server/lifecycle/pseudonym.ts';
import { systemClock } from '../src/lib/server/time/clock.ts';

const USAGE = `usage: REPLAY_FROM_URL=<the database that went on> npm run replay-erasures -- --since <ISO time> [--force]
After a point-in-time recovery of PostgreSQL into a new database (DATABASE_URL): applies to it every
erasure the old database (REPLAY_FROM_URL) recorded since the moment recovered to, so no erased
guest or lead comes back. Both URLs come from the environment: a command line shows in ps.
  --since   the moment the recovery went back to, e.g. 2027-03-01T02:00:00Z (earlier is safe)
  --force   replay although a worker's or web process's heartbeat in the recovered database is fresh`;

const argsSchema = z.object({ since: z.iso.datetime({ offset: true }), fromUrl: z.url() });

async function main(argv: string[]): Promise<number> {
	const config = getConfig();
	if (config.database.engine !== 'postgresql')
		return (
			console.error(
				'replay-erasures is for PostgreSQL (DATABASE_URL); on SQLite npm run restore replays the erasures itself'
			),
			2
		);
	const sinceAt = argv.indexOf('--since');
	const parsed = argsSchema.safeParse({
		since: sinceAt >= 0 ? argv[sinceAt + 1] : undefined,
		fromUrl: process.env.REPLAY_FROM_URL
	});
	if (!parsed.success) return (console.error(USAGE), 2);
	if (parsed.data.fromUrl === config.database.url)
		return (console.error('REPLAY_FROM_URL must be the old database, not DATABASE_URL (the recovered one)'), 2);
	const { reapplied } = await replayAfterPointInTimeRecovery({
		fromUrl: parsed.data.fromUrl,
		intoUrl: config.database.url,
		since: new Date(parsed.data.since).toISOString(),
		clock: systemClock,
		pseudonymKey: loadPseudonymKey(config.dataDir),
		force: argv.includes('--force')
	});
	console.log(`erasures re-applied: ${reapplied?.guests ?? 0} guest(s), ${reapplied?.leads ?? 0} lead(s)`);
	return 0;
}

main(process.argv.slice(2))
	.then((code) => process.exit(code))
	.catch((error: unknown) => {
		if (error instanceof RestoreError || error instanceof ConfigError)
			console.error(`replay refused: ${error.message}`);
		else console.error(`replay failed: ${String((error as Error)?.message ?? error)}`);
		process.exit(1);
	});
