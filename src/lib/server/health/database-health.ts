import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { BACKUPS_KEPT, listBackups } from '../backup/backup-files.ts';
import type { DatabaseTarget } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { describeTarget } from '../db/postgres/connect-error.ts';

/**
 * The database as the Health page shows it, per engine. SQLite: the file, its WAL and the
 * `app.db.bak-*` copies migrations and guest resets leave next to it. PostgreSQL: the server's
 * own size of the database, where it is (never the password) and the pg_dump backups in
 * BACKUP_DIR — there is no file of its own to look at, and nothing writes copies next to it.
 */
export type DatabaseHealth = SqliteHealth | PostgresHealth;

interface EngineHealth {
	/** "SQLite" or "PostgreSQL". */
	engine: string;
	engineVersion: string | null;
	/** The file (SQLite) or pg_database_size (PostgreSQL); null when it cannot be read. */
	bytes: number | null;
	integrity: 'not checked here';
}

export interface SqliteHealth extends EngineHealth {
	dialect: 'sqlite';
	path: string;
	walBytes: number | null;
	copies: { count: number; newest: string | null };
}

export interface PostgresHealth extends EngineHealth {
	dialect: 'postgresql';
	/** host:port/database. */
	target: string;
	/** files: newest first; null when BACKUP_DIR cannot be read. */
	backups: { dir: string; kept: number; files: { name: string; bytes: number; takenAt: string | null }[] | null };
}

export interface DatabaseHealthDeps {
	db: Db;
	database: DatabaseTarget;
	backupDir: string;
}

export async function readDatabaseHealth({ db, database, backupDir }: DatabaseHealthDeps): Promise<DatabaseHealth> {
	const base = { engine: dialectOf(db).engine, integrity: 'not checked here' as const };
	if (database.engine === 'postgresql') {
		const [engineVersion, bytes] = await Promise.all([readEngineVersion(db), readPgDatabaseBytes(db)]);
		const { hostPort, database: name } = describeTarget(database.url);
		return { ...base, dialect: 'postgresql', engineVersion, bytes, target: `${hostPort}/${name}`, backups: readPgBackups(backupDir) };
	}
	const [engineVersion, bytes, walBytes, copies] = await Promise.all([readEngineVersion(db), fileSize(database.path), fileSize(`${database.path}-wal`), listBakFiles(database.path)]);
	return { ...base, dialect: 'sqlite', engineVersion, bytes, walBytes, path: database.path, copies };
}

async function readEngineVersion(db: Db): Promise<string | null> {
	const rows = await db.$queryRawUnsafe<{ v: string }[]>(dialectOf(db).versionSql).catch(() => []);
	return rows[0]?.v ?? null;
}

async function readPgDatabaseBytes(db: Db): Promise<number | null> {
	const rows = await db.$queryRawUnsafe<{ bytes: bigint }[]>('SELECT pg_database_size(current_database()) AS bytes').catch(() => []);
	return rows[0] ? Number(rows[0].bytes) : null;
}

/** Newest first, as the backup keeps them (both engines' files count towards the 14). */
function readPgBackups(dir: string): PostgresHealth['backups'] {
	try {
		const files = listBackups(dir).map(({ name, bytes, takenAt }) => ({ name, bytes, takenAt }));
		return { dir, kept: BACKUPS_KEPT, files };
	} catch {
		// Not readable by the web process (permissions, a file pruned while listed): say so, not "none".
		return { dir, kept: BACKUPS_KEPT, files: null };
	}
}

async function fileSize(file: string): Promise<number | null> {
	return (await fsp.stat(file).catch(() => null))?.size ?? null;
}

/** `app.db.bak-*` copies next to the database (migrations, resets). */
async function listBakFiles(dbPath: string): Promise<{ count: number; newest: string | null }> {
	const dir = path.dirname(dbPath);
	const prefix = `${path.basename(dbPath)}.bak-`;
	const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix)).sort();
	return { count: names.length, newest: names.at(-1) ?? null };
}
