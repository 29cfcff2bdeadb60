import { Api } from 'grammy';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import { describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS, BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { alertAdmins } from '../../src/lib/server/telegram/admin-alerts.ts';
import { startedUser } from '../../tools/telegram-emulator/test-support.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';
import { useSendBudgetWorld } from '../helpers/send-budget-world.ts';

/**
 * An admin alert (a paused queue, billing, the fallback, the daily count) is a message like any
 * other: it takes its place in the bot's one send budget, so it neither crowds an admin's chat
 * another worker just wrote to nor goes past the bot's second. The places and sends are timed by
 * the FakeClock the budget's waits move.
 */
describe('admin alerts go through the send budget', () => {
	const sendBudgetWorld = useSendBudgetWorld('admin-alerts-budget-');

	async function world() {
		const world = await sendBudgetWorld();
		// The notices' kind of client: no transformer of its own, so any pacing is alertAdmins' doing.
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: world.emulator.url });
		const sends = world.recordSends(api, 'sendMessage');
		const sentAt = (chat: number) => sends.filter((send) => send.chat === chat).map((send) => send.at);
		// Another worker's budget on the same database (its own client on PostgreSQL).
		return { ...world, api, sentAt, otherWorker: new BotBudget(world.otherDb, world.clock, 'test') };
	}

	it('waits for the admin chat’s place another worker took, and takes one for each admin', async () => {
		const { db, clock, emulator, api, sentAt, otherWorker } = await world();
		const admins = [await startedUser(emulator, 'Admin A'), await startedUser(emulator, 'Admin B')];
		const start = clock.now().getTime();
		// Another worker just wrote to admin A (a guest notice to the same person, say).
		expect(await otherWorker.tryTake(BigInt(admins[0]!))).toBe(true);
		await otherWorker.settle(BigInt(admins[0]!)); // its call was answered at once

		await alertAdmins(
			{ db, clock, api, logger: silentLogger, pacing: sendPacingFor(db, clock), cooldown: new ChatCooldown() },
			admins.map(BigInt),
			'The queue is paused: the image provider refuses our access.'
		);

		// Admin A's alert waited out the chat's spacing; without the budget it would go at `start`.
		expect(sentAt(admins[0]!)).toEqual([start + BOT_LIMITS.perChatMs]);
		expect(sentAt(admins[1]!)).toHaveLength(1);
		for (const admin of admins)
			expect(
				(await emulator.control.chatMessages(admin)).filter((m) => m.from_bot && /paused/.test(m.text ?? ''))
			).toHaveLength(1);
		// Each alert left its place in the shared rows: the other worker must now wait for both chats.
		for (const admin of admins) expect(await otherWorker.take(BigInt(admin), 'guest')).toBeGreaterThan(0);
		// And both count in the bot's second (the other worker's message of 1.2 s before has left it).
		const bot = await db.telegramSendBudget.findUnique({ where: { key: 'bot' } });
		expect(bot?.recent.split(',').map(Number)).toEqual([start + BOT_LIMITS.perChatMs, start + BOT_LIMITS.perChatMs]);
	});
});
