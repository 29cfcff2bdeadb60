import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { BACKUPS_KEPT, listBackups } from '../backup/backup-files.ts';
import type { DatabaseTarget } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { placeOf } from '../db/database-place.ts';
import { dialectOf } from '../db/dialect/dialect.ts';

/**
 * The database as the Health page shows it, by where it lives (the dialect's `storage`). A file:
 * its size, its WAL and the `app.db.bak-*` copies migrations and guest resets leave next to it. A
 * server: its own size of the database, where it is (never the password) and the dump backups in
 * BACKUP_DIR — there is no file of ours to look at, and nothing writes copies next to it.
 */
export type DatabaseHealth = FileDatabaseHealth | ServerDatabaseHealth;

interface EngineHealth {
	/** What the engine is called ("SQLite", "PostgreSQL"), shown next to its version. */
	engine: string;
	engineVersion: string | null;
	/** The file's size or the server's size of the database; null when it cannot be read. */
	bytes: number | null;
	integrity: 'not checked here';
	/** Web processes register (and are listed) where a fleet may share the database. */
	sharedServer: boolean;
}

export interface FileDatabaseHealth extends EngineHealth {
	storage: 'file';
	walBytes: number | null;
	copies: { count: number; newest: string | null };
}

export interface ServerDatabaseHealth extends EngineHealth {
	storage: 'server';
	/** host:port/database. */
	target: string;
	/** files: newest first; null when BACKUP_DIR cannot be read. No folder: server paths stay on the server. */
	backups: { kept: number; files: { name: string; bytes: number; takenAt: string | null }[] | null };
}

export interface DatabaseHealthDeps {
	db: Db;
	database: DatabaseTarget;
	backupDir: string;
}

export async function readDatabaseHealth({ db, database, backupDir }: DatabaseHealthDeps): Promise<DatabaseHealth> {
	const dialect = dialectOf(db);
	const base = { engine: dialect.engine, integrity: 'not checked here' as const, sharedServer: dialect.sharedServer };
	const place = placeOf(database);
	if (place.storage === 'server') {
		const [engineVersion, bytes] = await Promise.all([readEngineVersion(db), readServerDatabaseBytes(db)]);
		return {
			...base,
			storage: 'server',
			engineVersion,
			bytes,
			target: place.where,
			backups: readDumpBackups(backupDir)
		};
	}
	const [engineVersion, bytes, walBytes, copies] = await Promise.all([
		readEngineVersion(db),
		fileSize(place.path),
		fileSize(`${place.path}-wal`),
		listBakFiles(place.path)
	]);
	return { ...base, storage: 'file', engineVersion, bytes, walBytes, copies };
}

async function readEngineVersion(db: Db): Promise<string | null> {
	const rows = await db.$queryRawUnsafe<{ v: string }[]>(dialectOf(db).versionSql).catch(() => []);
	return rows[0]?.v ?? null;
}

async function readServerDatabaseBytes(db: Db): Promise<number | null> {
	const { sizeSql } = dialectOf(db);
	if (!sizeSql) return null;
	const rows = await db.$queryRawUnsafe<{ bytes: bigint }[]>(sizeSql).catch(() => []);
	return rows[0] ? Number(rows[0].bytes) : null;
}

/** Newest first, as the backup keeps them (both engines' files count towards the 14). */
function readDumpBackups(dir: string): ServerDatabaseHealth['backups'] {
	try {
		const files = listBackups(dir).map(({ name, bytes, takenAt }) => ({ name, bytes, takenAt }));
		return { kept: BACKUPS_KEPT, files };
	} catch {
		// Not readable by the web process (permissions, a file pruned while listed): say so, not "none".
		return { kept: BACKUPS_KEPT, files: null };
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
