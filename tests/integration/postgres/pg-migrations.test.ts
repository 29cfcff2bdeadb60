import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { readMigrationFiles, POSTGRES_MIGRATIONS_DIR } from '../../../src/lib/server/db/migrations/migration-files.ts';
import {
	diffMigrationsToSchema,
	isEmptyMigration,
	postgresTarget
} from '../../../src/lib/server/db/migrations/new-migration.ts';
import { migratePostgres } from '../../../src/lib/server/db/migrations/pg-migrate.ts';
import { migrateSafely } from '../../../src/lib/server/db/migrations/safe-migrate.ts';
import { describeSchema } from '../../../src/lib/server/db/migrations/schema-shape.ts';
import { openSqliteFile } from '../../../src/lib/server/db/sqlite-file.ts';
import { FakeClock } from '../../../src/lib/server/time/clock.ts';
import { createDatabase, dropDatabase } from '../../helpers/pg-cluster.ts';
import { PROJECT_ROOT, runTs } from '../../helpers/node-process.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

const MIGRATIONS_DIR = path.join(PROJECT_ROOT, POSTGRES_MIGRATIONS_DIR);
const clock = new FakeClock(new Date('2026-12-01T12:00:00.000Z'));

/** Tables and their columns as PostgreSQL lists them, without Prisma's history table. */
async function columnsByTable(url: string): Promise<Record<string, string[]>> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		const { rows } = await client.query<{ table_name: string; column_name: string }>(
			`SELECT table_name, column_name FROM information_schema.columns
			 WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name, column_name`
		);
		const tables: Record<string, string[]> = {};
		for (const row of rows) (tables[row.table_name] ??= []).push(row.column_name);
		return tables;
	} finally {
		await client.end();
	}
}

type Row = Record<string, unknown>;

/** Rows as comparable text: every value as a string, times of the migration run ("…_at") left out. */
function comparable(rows: Row[]): string[] {
	return rows
		.map((row) =>
			JSON.stringify(
				Object.keys(row)
					.sort()
					.filter((key) => !key.endsWith('_at'))
					.map((key) => [key, row[key] === null ? null : String(row[key])])
			)
		)
		.sort();
}

async function pgRows(url: string, tables: string[]): Promise<Record<string, string[]>> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		const out: Record<string, string[]> = {};
		for (const table of tables) out[table] = comparable((await client.query(`SELECT * FROM "${table}"`)).rows);
		return out;
	} finally {
		await client.end();
	}
}

describe('PostgreSQL migrations', () => {
	const tempDir = useTempDir();

	it('apply to an empty database once, recorded in _prisma_migrations, and give the tables, columns and rows SQLite has', async () => {
		const url = await createDatabase(inject('pgServerUrl'), 'empty');
		try {
			const names = readMigrationFiles(MIGRATIONS_DIR).map((file) => file.name);
			expect(await migratePostgres({ url, migrationsDir: MIGRATIONS_DIR, clock })).toEqual({ applied: names });
			expect(await migratePostgres({ url, migrationsDir: MIGRATIONS_DIR, clock })).toEqual({ applied: [] });

			const dbPath = path.join(tempDir(), 'app.db');
			await migrateSafely({ dbPath, migrationsDir: path.join(PROJECT_ROOT, 'prisma', 'migrations'), clock });
			const sqlite = openSqliteFile(dbPath);
			const sqliteTables = Object.fromEntries(
				[...describeSchema(sqlite)].map(([table, shape]) => [table, [...shape.columns].sort()])
			);
			const sqliteRows = Object.fromEntries(
				Object.keys(sqliteTables).map((table) => [
					table,
					comparable(sqlite.prepare(`SELECT * FROM "${table}"`).all() as Row[])
				])
			);
			sqlite.close();
			expect(await columnsByTable(url)).toEqual(sqliteTables);
			// The rows the migrations write (the default event and its catalogue) are there on both.
			expect(await pgRows(url, Object.keys(sqliteTables))).toEqual(sqliteRows);
			expect(sqliteRows.events).toHaveLength(1);
		} finally {
			await dropDatabase(url);
		}
	});

	it('produce prisma/schema.prisma: the schema engine finds nothing to add (drift check)', async () => {
		const sql = await diffMigrationsToSchema(postgresTarget(PROJECT_ROOT, inject('pgServerUrl')));
		expect(isEmptyMigration(sql), sql).toBe(true);
	});

	it('the drift check notices a schema the migrations do not produce', async () => {
		const target = postgresTarget(PROJECT_ROOT, inject('pgServerUrl'));
		const changed = {
			...target,
			schema: {
				...target.schema,
				content: `${target.schema.content}\nmodel Extra {\n  id Int @id\n  @@map("extra")\n}\n`
			}
		};
		const sql = await diffMigrationsToSchema(changed);
		expect(isEmptyMigration(sql)).toBe(false);
		expect(sql).toContain('CREATE TABLE "extra"');
	});

	it('two `npm run db:migrate` processes at once on an empty database: one applies, the other finds it up to date', async () => {
		const url = await createDatabase(inject('pgServerUrl'), 'empty');
		try {
			const env = { DB_PATH: '', DATABASE_URL: url };
			const outputs = await Promise.all([
				runTs('src/lib/server/db/migrate-cli.ts', { env }),
				runTs('src/lib/server/db/migrate-cli.ts', { env })
			]);
			expect(outputs.map((o) => [o.code, o.stderr])).toEqual([
				[0, ''],
				[0, '']
			]);
			const lines = outputs.map((o) => o.stdout.trim().replace(/^postgresql \S+: /, '')).sort();
			expect(lines).toEqual([
				`applied ${readMigrationFiles(MIGRATIONS_DIR)
					.map((file) => file.name)
					.join(', ')}`,
				'up to date'
			]);
		} finally {
			await dropDatabase(url);
		}
	});

	it('two starts together in one process: one migrates, the other waits on the advisory lock and finds nothing pending', async () => {
		const url = await createDatabase(inject('pgServerUrl'), 'empty');
		try {
			const names = readMigrationFiles(MIGRATIONS_DIR).map((file) => file.name);
			const results = await Promise.all([
				migratePostgres({ url, migrationsDir: MIGRATIONS_DIR, clock }),
				migratePostgres({ url, migrationsDir: MIGRATIONS_DIR, clock })
			]);
			expect(results.map((r) => r.applied).sort((a, b) => b.length - a.length)).toEqual([names, []]);
			const client = new pg.Client({ connectionString: url });
			await client.connect();
			const history = await client.query(`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name`);
			await client.end();
			expect(history.rows.map((row) => row.migration_name)).toEqual(names);
		} finally {
			await dropDatabase(url);
		}
	});
});
