import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * prisma/schema.prisma (SQLite) is the one source of truth for the data model. The PostgreSQL
 * schema is derived from it and differs in two lines only: the datasource provider, and the folder
 * its client is generated into (two clients cannot share one folder). Column types need no
 * change: every field is String, Int, BigInt or Float, which map to text, integer, bigint and
 * double precision, and timestamps stay ISO 8601 text on both.
 */
export const SQLITE_SCHEMA_FILE = 'prisma/schema.prisma';
/** Written by `npm run db:generate`, git-ignored. */
export const POSTGRES_SCHEMA_FILE = 'prisma/schema.postgres.prisma';

const HEADER =
	'// GENERATED from prisma/schema.prisma by scripts/prisma-generate.mjs — do not edit, do not commit.\n' +
	'// Differs only in the datasource provider and the client output folder.\n\n';

const SWAPS: [RegExp, string][] = [
	[/^(\s*provider\s*=\s*)"sqlite"/m, '$1"postgresql"'],
	[/^(\s*output\s*=\s*)"\.\.\/src\/lib\/server\/db\/generated"/m, '$1"../src/lib/server/db/generated-pg"']
];

/** The PostgreSQL schema for a SQLite schema text; throws unless each line it rewrites is there exactly once. */
export function derivePostgresSchema(sqliteSchema: string): string {
	let text = sqliteSchema;
	for (const [pattern, replacement] of SWAPS) {
		const found = text.match(new RegExp(pattern.source, 'gm')) ?? [];
		if (found.length !== 1)
			throw new Error(`${SQLITE_SCHEMA_FILE}: expected one line matching ${pattern}, found ${found.length}`);
		text = text.replace(pattern, replacement);
	}
	return HEADER + text;
}

/** The derived schema of the project at `projectRoot`, as a path and its text (nothing written). */
export function readPostgresSchema(projectRoot: string): { path: string; content: string } {
	const content = derivePostgresSchema(readFileSync(path.join(projectRoot, SQLITE_SCHEMA_FILE), 'utf8'));
	return { path: path.join(projectRoot, POSTGRES_SCHEMA_FILE), content };
}

export function writePostgresSchema(projectRoot: string): string {
	const schema = readPostgresSchema(projectRoot);
	writeFileSync(schema.path, schema.content);
	return schema.path;
}
