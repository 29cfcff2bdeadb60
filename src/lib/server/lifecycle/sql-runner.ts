import type Database from 'better-sqlite3';
import type { Db, Tx } from '../db/client.ts';
import { dialectOf, type Dialect } from '../db/dialect/dialect.ts';
import { sqliteDialect } from '../db/dialect/sqlite.ts';

/**
 * The few statements of the data lifecycle run in two places: inside the live processes (through
 * Prisma, in a BEGIN IMMEDIATE transaction) and on a restored backup file before any process has
 * opened it (through a plain better-sqlite3 connection). Raw SQL behind this small interface keeps
 * one copy of each statement, and reaches tables other features add without their Prisma models.
 * Statements are written with `?` parameters in SQL both engines accept; the runner numbers them
 * for PostgreSQL.
 */
export interface SqlRunner {
	readonly dialect: Dialect;
	/** Returns the number of rows changed. */
	run(sql: string, params?: unknown[]): Promise<number>;
	all<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function prismaRunner(db: Db | Tx): SqlRunner {
	const dialect = dialectOf(db);
	return {
		dialect,
		run: (sql, params = []) => db.$executeRawUnsafe(dialect.numberParams(sql), ...params),
		all: <T>(sql: string, params: unknown[] = []) => db.$queryRawUnsafe<T[]>(dialect.numberParams(sql), ...params)
	};
}

/** A backup file opened by itself (restore), which is always SQLite. */
export function sqliteRunner(conn: Database.Database): SqlRunner {
	return {
		dialect: sqliteDialect,
		run: async (sql, params = []) => conn.prepare(sql).run(...params).changes,
		all: async <T>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as T[]
	};
}

/** Tables added by other features exist only once their migration has run (or in newer schemas). */
export async function tableExists(sql: SqlRunner, table: string): Promise<boolean> {
	const rows = await sql.all(sql.dialect.tableByNameSql, [table]);
	return rows.length > 0;
}

/** Telegram ids come back as bigint from Prisma and as number from better-sqlite3. */
export function toBigInt(value: unknown): bigint {
	return BigInt(String(value));
}
