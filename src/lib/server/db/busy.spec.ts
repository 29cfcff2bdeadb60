import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../tests/helpers/test-db.ts';
import { useTempDir } from '../../../../tests/helpers/temp-dir.ts';
import type { Db } from './client.ts';
import { isDatabaseBusy } from './busy.ts';

describe('isDatabaseBusy', () => {
	const tempDir = useTempDir();
	let db: Db;
	afterEach(async () => db?.$disconnect());

	it('recognises the error Prisma raises when another connection holds the write lock past busy_timeout', async () => {
		const created = await createTestDb(tempDir());
		db = created.db;
		const holder = new Database(created.dbPath);
		holder.exec('BEGIN IMMEDIATE');
		const failure = await db
			.$transaction(async (tx) => tx.setting.create({ data: { key: 'k', value: 'v', updatedAt: 'x' } }))
			.catch((e: unknown) => e);
		holder.exec('ROLLBACK');
		holder.close();
		expect(isDatabaseBusy(failure)).toBe(true);
		expect(isDatabaseBusy({ message: 'wrapped', cause: failure })).toBe(true);
		// The transaction rolled back: nothing half-written, and the next write works.
		expect(await db.setting.count()).toBe(0);
		await db.setting.create({ data: { key: 'k', value: 'v', updatedAt: 'x' } });
	}, 20_000);

	it('does not mistake other failures for a busy database', async () => {
		const created = await createTestDb(tempDir());
		db = created.db;
		const duplicate = await db.setting
			.createMany({
				data: [
					{ key: 'a', value: '1', updatedAt: 'x' },
					{ key: 'a', value: '2', updatedAt: 'x' }
				]
			})
			.catch((e: unknown) => e);
		expect(isDatabaseBusy(duplicate)).toBe(false);
		expect(isDatabaseBusy(new Error('boom'))).toBe(false);
		expect(isDatabaseBusy(undefined)).toBe(false);
	});
});
