import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where PostgreSQL's migrations live (relative to the project root), beside SQLite's prisma/migrations. */
export const POSTGRES_MIGRATIONS_DIR = path.join('prisma', 'postgres-migrations');

/** One folder of prisma/migrations (or prisma/postgres-migrations): `<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
	name: string;
	sql: string;
	/** SHA-256 of the script, the same checksum Prisma's CLI records in `_prisma_migrations`. */
	checksum: string;
}

export function readMigrationFiles(migrationsDir: string): MigrationFile[] {
	if (!existsSync(migrationsDir)) return [];
	return readdirSync(migrationsDir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, 'migration.sql')))
		.map((entry) => entry.name)
		.sort()
		.map((name) => {
			const sql = readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
			return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
		});
}
