import path from 'node:path';
import pg from 'pg';
import { migratePostgres } from '../../src/lib/server/db/migrations/pg-migrate.ts';
import { POSTGRES_MIGRATIONS_DIR } from '../../src/lib/server/db/migrations/migration-files.ts';
import { startPgCluster, type PgCluster } from '../../src/lib/server/db/migrations/throwaway-pg-cluster.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { PROJECT_ROOT } from './node-process.ts';

export { startPgCluster, type PgCluster };

/** The migrated database every test file's database is copied from (CREATE DATABASE … TEMPLATE). */
export const TEMPLATE_DATABASE = 'kiosk_template';

/** `url` with its database part replaced. */
export function databaseUrl(serverUrl: string, database: string): string {
	const url = new URL(serverUrl);
	url.pathname = `/${database}`;
	return url.toString();
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run in a transaction). */
export async function onServer(serverUrl: string, sql: string): Promise<void> {
	const client = new pg.Client({ connectionString: serverUrl });
	await client.connect();
	try {
		await client.query(sql);
	} finally {
		await client.end();
	}
}

/**
 * Creates the template database and applies the PostgreSQL migrations to it once; copies of it
 * take about 0.1 s (FILE_COPY: with fsync off its checkpoint is cheap, and it is about three
 * times faster here than the default WAL_LOG copy), so each test file starts from a fresh one.
 */
export async function createMigratedTemplate(serverUrl: string): Promise<void> {
	await onServer(serverUrl, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
	await migratePostgres({
		url: databaseUrl(serverUrl, TEMPLATE_DATABASE),
		migrationsDir: path.join(PROJECT_ROOT, POSTGRES_MIGRATIONS_DIR),
		clock: systemClock
	});
}

let created = 0;

/** A new database on the server: a copy of the migrated template, or empty. Returns its URL. */
export async function createDatabase(serverUrl: string, from: 'template' | 'empty'): Promise<string> {
	const name = `kiosk_test_${process.pid}_${++created}_${Date.now().toString(36)}`;
	await onServer(
		serverUrl,
		`CREATE DATABASE ${name}${from === 'template' ? ` TEMPLATE ${TEMPLATE_DATABASE} STRATEGY FILE_COPY` : ''}`
	);
	return databaseUrl(serverUrl, name);
}

export async function dropDatabase(url: string): Promise<void> {
	const name = new URL(url).pathname.slice(1);
	await onServer(databaseUrl(url, 'postgres'), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
