import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../tests/helpers/test-db.ts';
import { useTempDir } from '../../../../tests/helpers/temp-dir.ts';
import type { Db } from './client.ts';
import { transitionStatus } from './transition.ts';

describe('transitionStatus', () => {
	const tempDir = useTempDir();
	let db: Db;
	afterEach(async () => db?.$disconnect());

	async function sessionIn(status: string): Promise<void> {
		({ db } = await createTestDb(tempDir()));
		await db.session.create({ data: { sessionToken: 'tok', status, createdAt: 'x', updatedAt: 'x' } });
	}

	it('moves the row when it is in the expected state and writes the extra fields', async () => {
		await sessionIn('idle');
		expect(
			await transitionStatus(db.session, { sessionToken: 'tok' }, 'idle', 'linked', { telegramUserId: 7n })
		).toEqual({ won: true });
		expect(await db.session.findUnique({ where: { sessionToken: 'tok' } })).toMatchObject({
			status: 'linked',
			telegramUserId: 7n
		});
	});

	it('of two racing callers exactly one wins; the loser learns the current state', async () => {
		await sessionIn('idle');
		const results = await Promise.all([
			transitionStatus(db.session, { sessionToken: 'tok' }, 'idle', 'expired', { closedReason: 'qr_timeout' }),
			transitionStatus(db.session, { sessionToken: 'tok' }, 'idle', 'linked', { telegramUserId: 7n })
		]);
		expect(results.filter((r) => r.won)).toHaveLength(1);
		const loser = results.find((r) => !r.won);
		const row = await db.session.findUniqueOrThrow({ where: { sessionToken: 'tok' } });
		expect(loser).toEqual({ won: false, current: row.status });
	});

	it('accepts several expected states and reports a missing row as current null', async () => {
		await sessionIn('consented');
		expect(await transitionStatus(db.session, { sessionToken: 'tok' }, ['linked', 'consented'], 'expired')).toEqual({
			won: true
		});
		expect(await transitionStatus(db.session, { sessionToken: 'nope' }, 'idle', 'linked')).toEqual({
			won: false,
			current: null
		});
	});
});
