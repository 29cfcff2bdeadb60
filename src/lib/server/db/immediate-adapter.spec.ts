import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../tests/helpers/test-db.ts';
import { useTempDir } from '../../../../tests/helpers/temp-dir.ts';
import type { Db } from './client.ts';
import { AsyncLock } from './immediate-adapter.ts';

describe('AsyncLock', () => {
	it('runs holders one at a time in arrival order', async () => {
		const lock = new AsyncLock();
		const order: string[] = [];
		const task = (name: string, ms: number) =>
			lock.run(async () => {
				order.push(`${name}:start`);
				await new Promise((r) => setTimeout(r, ms));
				order.push(`${name}:end`);
			});
		await Promise.all([task('a', 20), task('b', 1), task('c', 1)]);
		expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
	});
});

describe('transactions on the shared connection', () => {
	const tempDir = useTempDir();
	let db: Db;
	afterEach(async () => db?.$disconnect());

	it("a write from another async flow never runs inside someone else's transaction and is not lost when it rolls back", async () => {
		({ db } = await createTestDb(tempDir()));
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const failing = db.$transaction(async (tx) => {
			await tx.setting.create({ data: { key: 'inside', value: '1', updatedAt: 'x' } });
			await held;
			throw new Error('roll back');
		});
		// Issued while the transaction is open: must wait for it, then commit on its own.
		const outside = db.setting.create({ data: { key: 'outside', value: '1', updatedAt: 'x' } });
		setTimeout(release, 50);
		await expect(failing).rejects.toThrow('roll back');
		await outside;
		expect((await db.setting.findMany()).map((s) => s.key)).toEqual(['outside']);
	});
});
