import pg from 'pg';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { migratePostgres } from '../migrations/pg-migrate.ts';
import { POSTGRES_MIGRATIONS_DIR } from '../migrations/migration-files.ts';
import { instanceLockPath, liveLockHolder } from '../../system/instance-lock.ts';
import type { Clock } from '../../time/clock.ts';
import { MoveError, openSource, sourceCount, sourceTables } from './sqlite-source.ts';
import { foreignKeyOrder, resetSequences, SEED_ROWS, targetColumns, targetCount, toPg } from './pg-target.ts';

export interface MoveOptions {
	dbPath: string;
	dataDir: string;
	url: string;
	projectRoot: string;
	clock: Clock;
	replace: boolean;
}

export interface TableCount {
	table: string;
	source: number;
	target: number;
}

const BATCH_ROWS = 500;

/** A running worker or web process keeps writing to the SQLite file: rows written during the copy would be lost. */
function assertStopped(dataDir: string): void {
	for (const owner of ['worker', 'web'] as const) {
		const pid = liveLockHolder(dataDir, owner);
		if (pid !== null)
			throw new MoveError(
				`the ${owner === 'web' ? 'web process' : 'worker'} (pid ${pid}) holds ${instanceLockPath(dataDir, owner)}: stop the services first (systemctl stop sticker-bot sticker-api)`
			);
	}
}

async function assertEmpty(client: pg.Client, tables: string[]): Promise<void> {
	for (const table of tables) {
		const count = await targetCount(client, table);
		if (count > (SEED_ROWS[table] ?? 0))
			throw new MoveError(`the target already holds data (${table}: ${count} rows); pass --replace to overwrite it`);
	}
}

async function copyTable(source: Database.Database, client: pg.Client, table: string): Promise<void> {
	const columns = await targetColumns(client, table);
	const names = [...columns.keys()];
	const rows = source.prepare(`SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM "${table}"`).iterate() as Iterable<
		Record<string, unknown>
	>;
	let batch: Record<string, unknown>[] = [];
	const flush = async () => {
		if (batch.length === 0) return;
		const values = batch.flatMap((row) => names.map((n) => toPg(row[n], columns.get(n)!)));
		const tuples = batch.map((_, r) => `(${names.map((_, c) => `$${r * names.length + c + 1}`).join(', ')})`);
		await client.query(
			`INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES ${tuples.join(', ')}`,
			values
		);
		batch = [];
	};
	for (const row of rows) {
		batch.push(row);
		if (batch.length >= BATCH_ROWS) await flush();
	}
	await flush();
}

/** Copies every table of the SQLite install into the migrated PostgreSQL database in one transaction, then compares counts. */
export async function moveToPostgres(options: MoveOptions): Promise<TableCount[]> {
	if (!/^postgres(ql)?:\/\//.test(options.url))
		throw new MoveError('DATABASE_URL must be a postgresql:// URL (the target of the move)');
	const source = openSource(options.dbPath);
	try {
		assertStopped(options.dataDir);
		await migratePostgres({
			url: options.url,
			migrationsDir: path.join(options.projectRoot, POSTGRES_MIGRATIONS_DIR),
			clock: options.clock
		});
		const client = new pg.Client({ connectionString: options.url });
		await client.connect();
		try {
			const tables = await foreignKeyOrder(client, sourceTables(source));
			if (!options.replace) await assertEmpty(client, tables);
			await client.query('BEGIN');
			// The seed rows are in the SQLite file too (its migrations made them): clear first.
			await client.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
			for (const table of tables) await copyTable(source, client, table);
			for (const table of tables) await resetSequences(client, table);
			// Counted inside the transaction: a mismatch rolls the whole copy back, the target stays as it was.
			const counts: TableCount[] = [];
			for (const table of tables)
				counts.push({ table, source: sourceCount(source, table), target: await targetCount(client, table) });
			await client.query(counts.every((c) => c.source === c.target) ? 'COMMIT' : 'ROLLBACK');
			return counts;
		} catch (error) {
			await client.query('ROLLBACK').catch(() => undefined);
			throw error;
		} finally {
			await client.end();
		}
	} finally {
		source.close();
	}
}
