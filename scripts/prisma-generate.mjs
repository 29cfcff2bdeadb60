// `prisma generate` without the native schema engine (it cannot be downloaded on our machines).
// Generation needs no engine; the CLI only checks that the engine path exists, so point it at a
// file that does. See docs/toolchain.md.
//
// prisma/schema.prisma (SQLite) is the one source of truth for the data model. The PostgreSQL
// schema is derived from it here, into a git-ignored file, and gets a client of its own: the
// derived file differs only in the datasource provider and in where its client is written (two
// clients cannot share one folder).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SQLITE_SCHEMA = path.join(root, 'prisma', 'schema.prisma');
export const POSTGRES_SCHEMA = path.join(root, 'prisma', 'schema.postgres.prisma');

const HEADER =
	'// GENERATED from prisma/schema.prisma by scripts/prisma-generate.mjs — do not edit, do not commit.\n' +
	'// Differs only in the datasource provider and the client output folder.\n\n';

/** The PostgreSQL schema text for a SQLite schema text; throws when the lines it rewrites are not there once each. */
export function derivePostgresSchema(sqlite) {
	const swaps = [
		[/^(\s*provider\s*=\s*)"sqlite"/m, '$1"postgresql"'],
		[/^(\s*output\s*=\s*)"\.\.\/src\/lib\/server\/db\/generated"/m, '$1"../src/lib/server/db/generated-pg"']
	];
	let text = sqlite;
	for (const [pattern, replacement] of swaps) {
		const found = text.match(new RegExp(pattern.source, 'gm')) ?? [];
		if (found.length !== 1) throw new Error(`prisma/schema.prisma: expected one line matching ${pattern}, found ${found.length}`);
		text = text.replace(pattern, replacement);
	}
	return HEADER + text;
}

function generate(schemaPath) {
	const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
	env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
	const result = spawnSync('npx', ['prisma', 'generate', '--schema', schemaPath], { cwd: root, env, stdio: 'inherit' });
	return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	writeFileSync(POSTGRES_SCHEMA, derivePostgresSchema(readFileSync(SQLITE_SCHEMA, 'utf8')));
	const status = generate(SQLITE_SCHEMA) || generate(POSTGRES_SCHEMA);
	process.exit(status);
}
