import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Clock } from '../../time/clock.ts';
import { connectErrorFor, DatabaseConnectError } from '../postgres/connect-error.ts';
import { pendingAfter, type HistoryRow } from './history.ts';
import { readMigrationFiles } from './migration-files.ts';
import { MigrationError } from './safe-migrate.ts';

export interface PgMigrateOptions {
	url: string;
	migrationsDir: string;
	clock: Clock;
}

/** Who migrates: every process that starts takes this lock first (the number is ours alone). */
export const MIGRATION_LOCK_KEY = 7_316_250_016n;
/** How long a start waits for the server before saying it cannot reach it. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** The history table in the layout Prisma's CLI uses on PostgreSQL, so `prisma migrate deploy` agrees with us. */
const CREATE_HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the pending PostgreSQL migrations in one transaction: PostgreSQL DDL is transactional,
 * so a failure leaves the database as it was. The transaction first takes an advisory lock, so
 * when several processes start together one migrates and the others wait, then find nothing
 * pending. There is no backup here (the SQLite path's copy-and-trial does not apply to a server);
 * backups of a PostgreSQL database are pg_dump's and the provider's job.
 */
export async function migratePostgres(options: PgMigrateOptions): Promise<{ applied: string[] }> {
	const files = readMigrationFiles(options.migrationsDir);
	if (files.length === 0) throw new MigrationError(`no migrations found in ${options.migrationsDir}`);
	const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
	try {
		await client.connect();
	} catch (error) {
		throw connectErrorFor(options.url, error);
	}
	// A dropped connection emits 'error' on the client; without a listener it would crash the process.
	client.on('error', () => undefined);
	const at = options.clock.now().toISOString();
	try {
		await client.query('BEGIN');
		await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
		await client.query(CREATE_HISTORY);
		const history = await client.query<HistoryRow>(
			`SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations WHERE rolled_back_at IS NULL`
		);
		const pending = pendingAfter(history.rows, files);
		for (const file of pending) {
			await client.query(file.sql).catch((error: Error) => {
				throw new Error(`migration ${file.name} failed: ${error.message}`);
			});
			await client.query(
				`INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, $4, $3, 1)`,
				[randomUUID(), file.checksum, at, file.name]
			);
		}
		await client.query('COMMIT');
		return { applied: pending.map((file) => file.name) };
	} catch (error) {
		await client.query('ROLLBACK').catch(() => undefined);
		if (error instanceof DatabaseConnectError) throw error;
		throw new MigrationError(
			`database migration failed; the PostgreSQL database was left unchanged. Cause: ${(error as Error).message}`
		);
	} finally {
		await client.end().catch(() => undefined);
	}
}
