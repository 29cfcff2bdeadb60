import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import { withDialect } from './dialect/dialect.ts';
import { postgresDialect } from './dialect/postgres.ts';
import { sqliteDialect } from './dialect/sqlite.ts';
import { ImmediateSqliteAdapterFactory } from './immediate-adapter.ts';
import { PrismaClient as PostgresPrismaClient } from './generated-pg/client.ts';

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** How long a writer waits for another process's write lock before giving up (Litestream's value). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Per-connection settings, applied before the first query. foreign_keys is per connection and off
 * by default in SQLite — the old system never turned it on; we do.
 */
const CONNECTION_PRAGMAS = ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL', 'PRAGMA foreign_keys = ON'];

/** Opens the shared SQLite file through Prisma with our pragmas and BEGIN IMMEDIATE transactions. */
export function openDatabase(dbPath: string): Db {
	mkdirSync(path.dirname(dbPath), { recursive: true });
	const inner = new PrismaBetterSqlite3({ url: `file:${dbPath}`, timeout: BUSY_TIMEOUT_MS });
	const adapter = new ImmediateSqliteAdapterFactory(inner, applyPragmas);
	return withDialect(
		new PrismaClient({ adapter, transactionOptions: { maxWait: BUSY_TIMEOUT_MS * 2, timeout: 30_000 } }),
		sqliteDialect
	);
}

/** How long opening a PostgreSQL connection may take before the start says it cannot reach the server. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens the PostgreSQL database of DATABASE_URL through Prisma's pg adapter, as the same `Db` the
 * rest of the product uses: client-parity.ts proves at compile time that the PostgreSQL client's
 * model delegates serve every call written against the SQLite client, which makes the cast safe.
 * Transactions are PostgreSQL's default READ COMMITTED; the same time limits as on SQLite.
 */
export function openPostgresDatabase(url: string): Db {
	const adapter = new PrismaPg({ connectionString: url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
	const client = new PostgresPrismaClient({
		adapter,
		transactionOptions: { maxWait: BUSY_TIMEOUT_MS * 2, timeout: 30_000 }
	});
	return withDialect(client as unknown as Db, postgresDialect);
}

async function applyPragmas(adapter: SqlDriverAdapter): Promise<void> {
	for (const sql of CONNECTION_PRAGMAS) await adapter.executeRaw({ sql, args: [], argTypes: [] });
}

/** The effective settings of a connection, as SQLite reports them (for /health and tests). */
export async function readConnectionPragmas(
	db: Db
): Promise<{ journalMode: string; foreignKeys: number; busyTimeout: number; synchronous: number }> {
	const one = async <T>(sql: string) =>
		Object.values((await db.$queryRawUnsafe<Record<string, T>[]>(sql))[0] ?? {})[0] as T;
	return {
		journalMode: String(await one<string>('PRAGMA journal_mode')),
		foreignKeys: Number(await one<bigint>('PRAGMA foreign_keys')),
		busyTimeout: Number(await one<bigint>('PRAGMA busy_timeout')),
		synchronous: Number(await one<bigint>('PRAGMA synchronous'))
	};
}
