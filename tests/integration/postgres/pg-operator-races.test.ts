import { describe, expect, it } from 'vitest';
import { addOperator, changeOperatorRole, removeOperator } from '../../../src/lib/server/auth/operators.ts';
import { createOwner, issueSetupToken } from '../../../src/lib/server/auth/owner-setup.ts';
import { FakeClock } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { insertOperator, TEST_PASSWORD } from '../console-fixtures.ts';
import { atOnce, fulfilled, refusals, useTwoClients } from './race-clients.ts';

// Two web processes on one PostgreSQL database: the console's people changed from both at once.
// "Setup happens once" and "never without an owner" are decided by counting, so the counted rows
// must be locked first.

const ROUNDS = 10;

describe('operator writes from two web processes at once', () => {
	const database = usePgTestDb();
	const clients = useTwoClients(database);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');

	it('two first-owner set-ups with the one link at once: exactly one owner, the other is told setup is done', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			await one.operator.deleteMany();
			const token = (await issueSetupToken(one, clock))!;
			const outcomes = await atOnce([one, two], (db, n) =>
				createOwner(db, clock, { token, username: `owner-${round}-${n}`, password: TEST_PASSWORD, ip: null })
			);
			expect(fulfilled(outcomes)).toHaveLength(1);
			expect(await one.operator.count()).toBe(1);
			const refused = outcomes.find((o) => o.status === 'rejected');
			expect((refused as PromiseRejectedResult).reason.message).toMatch(/already done|not valid/);
		}
	});

	it('two owners removing each other at once: one stays', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			await one.operator.deleteMany();
			const owners = [
				await insertOperator(one, clock, `ann-${round}`, 'owner'),
				await insertOperator(one, clock, `bob-${round}`, 'owner')
			];
			const outcomes = await atOnce([one, two], (db, n) =>
				removeOperator(db, clock, { name: owners[n]!.username, ip: null, operatorId: owners[n]!.id }, owners[1 - n]!.id)
			);
			expect(refusals(outcomes)).toEqual(['OperatorRefused']);
			expect(await one.operator.count({ where: { role: 'owner' } })).toBe(1);
		}
	});

	it('two owners making each other operators at once: one stays owner', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			await one.operator.deleteMany();
			const owners = [
				await insertOperator(one, clock, `cat-${round}`, 'owner'),
				await insertOperator(one, clock, `dan-${round}`, 'owner')
			];
			const outcomes = await atOnce([one, two], (db, n) =>
				changeOperatorRole(
					db,
					clock,
					{ name: owners[n]!.username, ip: null, operatorId: owners[n]!.id },
					owners[1 - n]!.id,
					'operator'
				)
			);
			expect(refusals(outcomes)).toEqual(['OperatorRefused']);
			expect(await one.operator.count({ where: { role: 'owner' } })).toBe(1);
		}
	});

	it('one username added from both at once: one operator, the other told the name is taken', async () => {
		const [one, two] = clients();
		for (let round = 0; round < ROUNDS; round++) {
			const outcomes = await atOnce([one, two], (db) =>
				addOperator(
					db,
					clock,
					{ name: 'owner', ip: null },
					{ username: `eve-${round}`, role: 'operator', password: TEST_PASSWORD }
				)
			);
			expect(fulfilled(outcomes)).toHaveLength(1);
			expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason.message).toBe(
				`An operator named “eve-${round}” already exists.`
			);
		}
	});
});
