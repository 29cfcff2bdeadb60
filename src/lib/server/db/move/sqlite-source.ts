import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

export class MoveError extends Error {
	override name = 'MoveError';
}

/** Opens the SQLite file read-only; safeIntegers keeps Telegram ids (BigInt) exact. */
export function openSource(dbPath: string): Database.Database {
	if (!existsSync(dbPath)) throw new MoveError(`no SQLite database at ${dbPath} (set DB_PATH to the install's app.db)`);
	const conn = new Database(dbPath, { readonly: true, fileMustExist: true });
	conn.defaultSafeIntegers(true);
	return conn;
}

/** The product's tables: Prisma's history and SQLite's own tables are not data. */
export function sourceTables(conn: Database.Database): string[] {
	return conn
		.prepare(
			`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`
		)
		.pluck()
		.all() as string[];
}

export function sourceCount(conn: Database.Database, table: string): number {
	return Number(conn.prepare(`SELECT count(*) FROM "${table}"`).pluck().get());
}
