import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI (`prisma generate`). Migrations are created and applied by our own code
// (src/lib/server/db/migrations/) because the CLI's native schema engine cannot be downloaded here.
const dbPath = process.env.DB_PATH ?? 'data/app.db';

export default defineConfig({
	schema: 'prisma/schema.prisma',
	migrations: { path: 'prisma/migrations' },
	datasource: { url: `file:${path.resolve(import.meta.dirname, dbPath)}` }
});
