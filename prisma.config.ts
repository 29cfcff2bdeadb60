import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI (`prisma generate`, which scripts/prisma-generate.mjs runs once per schema).
// Migrations are created and applied by our own code (src/lib/server/db/migrations/) because the
// CLI's native schema engine cannot be downloaded here. Where it can, `prisma migrate deploy` finds
// the same files: PostgreSQL's when DATABASE_URL is set, SQLite's otherwise.
const postgresUrl = process.env.DATABASE_URL;
const dbPath = process.env.DB_PATH ?? 'data/app.db';

export default defineConfig(
	postgresUrl
		? {
				schema: 'prisma/schema.postgres.prisma',
				migrations: { path: 'prisma/postgres-migrations' },
				datasource: { url: postgresUrl }
			}
		: {
				schema: 'prisma/schema.prisma',
				migrations: { path: 'prisma/migrations' },
				datasource: { url: `file:${path.resolve(import.meta.dirname, dbPath)}` }
			}
);
