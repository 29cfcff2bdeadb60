import { describe, expect, it } from 'vitest';
import { issueLinkCode, linkTelegramChat } from '../../../src/lib/server/auth/operator-telegram.ts';
import { FakeClock } from '../../../src/lib/server/time/clock.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { insertOperator } from '../console-fixtures.ts';
import { atOnce, fulfilled, useTwoClients } from './race-clients.ts';

// One /link code sent from two chats at once, through two clients of one PostgreSQL database (a
// worker handing the updates lease over, or a code leaked to someone else): it works once.

const ROUNDS = 10;

describe('an operator link code used from two clients at once', () => {
	const database = usePgTestDb();
	const clients = useTwoClients(database);
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');

	it('links exactly one chat; the other is told the code is wrong; one audit entry', async () => {
		const [one, two] = clients();
		const operator = await insertOperator(one, clock, 'ivan', 'operator');
		for (let round = 0; round < ROUNDS; round++) {
			const { code } = await issueLinkCode(one, clock, { name: 'ivan', ip: null }, operator.id);
			const chats = [BigInt(7_000_000 + 2 * round), BigInt(7_000_001 + 2 * round)];
			const outcomes = fulfilled(await atOnce([one, two], (db, n) => linkTelegramChat(db, clock, chats[n]!, code)));
			expect(outcomes.map((o) => o.kind).sort()).toEqual(['linked', 'wrong']);
			const winner = chats[outcomes.findIndex((o) => o.kind === 'linked')];
			expect(await one.operator.findUniqueOrThrow({ where: { id: operator.id } })).toMatchObject({
				telegramId: winner
			});
			expect(
				await one.auditLog.count({ where: { action: 'operator_telegram_verified', telegramUserId: winner } })
			).toBe(1);
		}
		expect(await one.operatorLinkCode.count()).toBe(0);
	});
});
