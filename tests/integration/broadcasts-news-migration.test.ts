import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { countAudience, readStanding } from '../../src/lib/server/broadcasts/audience.ts';
import { openDatabase, openPostgresDatabase, type Db } from '../../src/lib/server/db/client.ts';
import { POSTGRES_MIGRATIONS_DIR } from '../../src/lib/server/db/migrations/migration-files.ts';
import { migratePostgres } from '../../src/lib/server/db/migrations/pg-migrate.ts';
import { migrateSafely } from '../../src/lib/server/db/migrations/safe-migrate.ts';
import { openSqliteFile } from '../../src/lib/server/db/sqlite-file.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { createDatabase, dropDatabase } from '../helpers/pg-cluster.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { testsRunOnPostgres } from '../helpers/pg-test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/**
 * The news opt-in's migration on a database that already has guests: one who consented to the
 * selfie before the change (and was in every broadcast's audience then), one who had opted out
 * with /stop, one with the button under a broadcast. After it, the consenter is out of the
 * audience — no opt-in was made for them — and both opt-outs are still opt-outs, with how and when.
 * Runs on SQLite, and on PostgreSQL under TEST_DB_ENGINE=postgresql (its own migration folder).
 */
const MIGRATION = '20261203073423_news_opt_ins';
const AT = '2026-11-20T10:00:00.000Z';

const BEFORE_CHANGE = [
	`INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (9001, 'Consented', '${AT}', '${AT}')`,
	`INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (9002, 'Stopped', '${AT}', '${AT}')`,
	`INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (9003, 'Pressed', '${AT}', '${AT}')`,
	`INSERT INTO broadcast_opt_outs (telegram_user_id, via, broadcast_id, opted_out_at) VALUES (9002, 'stop', NULL, '${AT}')`,
	`INSERT INTO broadcast_opt_outs (telegram_user_id, via, broadcast_id, opted_out_at) VALUES (9003, 'button', 4, '${AT}')`
];

/** A copy of a migrations folder without this change and what came after it. */
function migrationsBefore(dir: string, target: string): string {
	for (const name of readdirSync(dir))
		if (name < MIGRATION) cpSync(path.join(dir, name), path.join(target, name), { recursive: true });
	return target;
}

describe('the news opt-in migration', () => {
	const tempDir = useTempDir('news-migration-');
	const cleanUp: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const step of cleanUp.splice(0).reverse()) await step();
	});

	async function sqliteWithOldGuests(dir: string): Promise<Db> {
		const dbPath = path.join(dir, 'app.db');
		const all = path.join(PROJECT_ROOT, 'prisma', 'migrations');
		await migrateSafely({ dbPath, migrationsDir: migrationsBefore(all, path.join(dir, 'before')), clock: systemClock });
		const conn = openSqliteFile(dbPath);
		for (const sql of BEFORE_CHANGE) conn.exec(sql);
		conn.close();
		await migrateSafely({ dbPath, migrationsDir: all, clock: systemClock });
		return openDatabase(dbPath);
	}

	async function postgresWithOldGuests(dir: string): Promise<Db> {
		const serverUrl = process.env.KIOSK_TEST_PG_SERVER_URL;
		if (!serverUrl) throw new Error('TEST_DB_ENGINE=postgresql needs the PostgreSQL globalSetup (vitest.config.ts)');
		const url = await createDatabase(serverUrl, 'empty');
		cleanUp.push(() => dropDatabase(url));
		const all = path.join(PROJECT_ROOT, POSTGRES_MIGRATIONS_DIR);
		await migratePostgres({ url, migrationsDir: migrationsBefore(all, path.join(dir, 'before')), clock: systemClock });
		const client = new pg.Client({ connectionString: url });
		await client.connect();
		for (const sql of BEFORE_CHANGE) await client.query(sql);
		await client.end();
		expect((await migratePostgres({ url, migrationsDir: all, clock: systemClock })).applied[0]).toBe(MIGRATION);
		return openPostgresDatabase(url);
	}

	it('leaves guests who only consented out of the audience and keeps every opt-out', async () => {
		const dir = tempDir();
		const db = testsRunOnPostgres() ? await postgresWithOldGuests(dir) : await sqliteWithOldGuests(dir);
		cleanUp.push(() => db.$disconnect());

		expect(await countAudience(db, null)).toBe(0);
		// The consenter never said yes (left out, but no opt-out of theirs); the two who said no stay out.
		expect([await readStanding(db, 9001n), await readStanding(db, 9002n), await readStanding(db, 9003n)]).toEqual([
			'not_opted_in',
			'opted_out',
			'opted_out'
		]);
		const rows = await db.newsOptIn.findMany({ orderBy: { telegramUserId: 'asc' } });
		expect(
			rows.map((r) => ({
				id: r.telegramUserId,
				state: r.state,
				via: r.via,
				broadcastId: r.broadcastId,
				answeredAt: r.answeredAt,
				wording: r.wordingVersion
			}))
		).toEqual([
			{ id: 9002n, state: 'out', via: 'stop', broadcastId: null, answeredAt: AT, wording: null },
			{ id: 9003n, state: 'out', via: 'broadcast_button', broadcastId: 4, answeredAt: AT, wording: null }
		]);
		// The consenter keeps their consent (it still lets us send their pack) and is asked after their next pack.
		expect((await db.user.findUniqueOrThrow({ where: { telegramUserId: 9001n } })).consentedAt).toBe(AT);
	});
});
