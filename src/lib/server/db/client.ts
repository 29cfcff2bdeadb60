import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import { withDialect } from './dialect/dialect.ts';
import { sqliteDialect } from './dialect/sqlite.ts';
import { ImmediateSqliteAdapterFactory } from './immediate-adapter.ts';

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
	return withDialect(new PrismaClient({ adapter, transactionOptions: { maxWait: BUSY_TIMEOUT_MS * 2, timeout: 30_000 } }), sqliteDialect);
}

async function applyPragmas(adapter: SqlDriverAdapter): Promise<void> {
	for (const sql of CONNECTION_PRAGMAS) await adapter.executeRaw({ sql, args: [], argTypes: [] });
}

/** The effective settings of a connection, as SQLite reports them (for /health and tests). */
export async function readConnectionPragmas(db: Db): Promise<{ journalMode: string; foreignKeys: number; busyTimeout: number; synchronous: number }> {
	const one = async <T>(sql: string) => Object.values((await db.$queryRawUnsafe<Record<string, T>[]>(sql))[0] ?? {})[0] as T;
	return {
		journalMode: String(await one<string>('PRAGMA journal_mode')),
		foreignKeys: Number(await one<bigint>('PRAGMA foreign_keys')),
		busyTimeout: Number(await one<bigint>('PRAGMA busy_timeout')),
		synchronous: Number(await one<bigint>('PRAGMA synchronous'))
	};
}
