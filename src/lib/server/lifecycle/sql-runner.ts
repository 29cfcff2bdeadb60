import type Database from 'better-sqlite3';
import type { Db, Tx } from '../db/client.ts';

/**
 * The few statements of the data lifecycle run in two places: inside the live processes (through
 * Prisma, in a BEGIN IMMEDIATE transaction) and on a restored backup file before any process has
 * opened it (through a plain better-sqlite3 connection). Raw SQL behind this small interface keeps
 * one copy of each statement, and reaches tables other features add without their Prisma models.
 */
export interface SqlRunner {
	/** Returns the number of rows changed. */
	run(sql: string, params?: unknown[]): Promise<number>;
	all<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function prismaRunner(db: Db | Tx): SqlRunner {
	return {
		run: (sql, params = []) => db.$executeRawUnsafe(sql, ...params),
		all: <T>(sql: string, params: unknown[] = []) => db.$queryRawUnsafe<T[]>(sql, ...params)
	};
}

export function sqliteRunner(conn: Database.Database): SqlRunner {
	return {
		run: async (sql, params = []) => conn.prepare(sql).run(...params).changes,
		all: async <T>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as T[]
	};
}

/** Tables added by other features exist only once their migration has run (or in newer schemas). */
export async function tableExists(sql: SqlRunner, table: string): Promise<boolean> {
	const rows = await sql.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [table]);
	return rows.length > 0;
}

/** Telegram ids come back as bigint from Prisma and as number from better-sqlite3. */
export function toBigInt(value: unknown): bigint {
	return BigInt(String(value));
}
