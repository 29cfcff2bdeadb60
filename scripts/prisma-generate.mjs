// `prisma generate` without the native schema engine (it cannot be downloaded on our machines).
// Generation needs no engine; the CLI only checks that the engine path exists, so point it at a
// file that does. See docs/toolchain.md.
//
// Two clients: SQLite from prisma/schema.prisma, PostgreSQL from the schema derived from it
// (src/lib/server/db/postgres/derived-schema.ts says what differs). tsx loads that TypeScript module.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register();
const { SQLITE_SCHEMA_FILE, writePostgresSchema } = await import('../src/lib/server/db/postgres/derived-schema.ts');

function generate(schemaPath) {
	const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
	env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
	const result = spawnSync('npx', ['prisma', 'generate', '--schema', schemaPath], { cwd: root, env, stdio: 'inherit' });
	return result.status ?? 1;
}

const postgresSchema = writePostgresSchema(root);
process.exit(generate(path.join(root, SQLITE_SCHEMA_FILE)) || generate(postgresSchema));
