import { describe, expect, it } from 'vitest';
import {
	diffMigrationsToSchema,
	isEmptyMigration,
	sqliteTarget
} from '../../src/lib/server/db/migrations/new-migration.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

// PostgreSQL's migrations get the same check in tests/integration/postgres/pg-migrations.test.ts.
describe('SQLite migrations and prisma/schema.prisma', () => {
	it('agree: the schema engine finds nothing to add after replaying prisma/migrations', async () => {
		const sql = await diffMigrationsToSchema(sqliteTarget(PROJECT_ROOT));
		expect(isEmptyMigration(sql), sql).toBe(true);
	});

	it('the check notices a schema the migrations do not produce', async () => {
		const target = sqliteTarget(PROJECT_ROOT);
		const changed = {
			...target,
			schema: {
				...target.schema,
				content: `${target.schema.content}\nmodel Extra {\n  id Int @id\n  @@map("extra")\n}\n`
			}
		};
		expect(await diffMigrationsToSchema(changed)).toContain('CREATE TABLE "extra"');
	});
});
