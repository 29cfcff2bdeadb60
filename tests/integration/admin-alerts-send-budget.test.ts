import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS, BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { alertAdmins } from '../../src/lib/server/telegram/admin-alerts.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createTelegramEmulator, type TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { startedUser } from '../../tools/telegram-emulator/test-support.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';
import { testsRunOnPostgres } from '../helpers/pg-test-db.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * An admin alert (a paused queue, billing, the fallback, the daily count) is a message like any
 * other: it takes its place in the bot's one send budget, so it neither crowds an admin's chat
 * another worker just wrote to nor goes past the bot's second. The places and sends are timed by
 * the FakeClock the budget's waits move.
 */
describe('admin alerts go through the send budget', () => {
	const openDb = useTestDb('admin-alerts-budget-');
	const closers: (() => Promise<unknown>)[] = [];
	afterEach(async () => {
		for (const close of closers.splice(0).reverse()) await close();
	});

	async function world() {
		const made = await openDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const emulator: TelegramEmulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		closers.push(() => emulator.close());
		// The notices' kind of client: no transformer of its own, so any pacing is alertAdmins' doing.
		const api = new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url });
		const sentAt = new Map<number, number[]>();
		api.config.use(async (prev, method, payload, signal) => {
			const chat = Number((payload as { chat_id?: number }).chat_id);
			if (method === 'sendMessage') sentAt.set(chat, [...(sentAt.get(chat) ?? []), clock.now().getTime()]);
			return prev(method, payload, signal);
		});
		// Another worker's budget on the same database (its own client on PostgreSQL).
		const otherDb = testsRunOnPostgres() ? made.reopen() : made.db;
		if (otherDb !== made.db) closers.push(() => otherDb.$disconnect());
		return { db: made.db, clock, emulator, api, sentAt, otherWorker: new BotBudget(otherDb, clock) };
	}

	it('waits for the admin chat’s place another worker took, and takes one for each admin', async () => {
		const { db, clock, emulator, api, sentAt, otherWorker } = await world();
		const admins = [await startedUser(emulator, 'Admin A'), await startedUser(emulator, 'Admin B')];
		const start = clock.now().getTime();
		// Another worker just wrote to admin A (a guest notice to the same person, say).
		expect(await otherWorker.tryTake(BigInt(admins[0]!))).toBe(true);

		await alertAdmins(
			{ db, api, logger: silentLogger, pacing: sendPacingFor(db, clock) },
			admins.map(BigInt),
			'The queue is paused: the image provider refuses our access.'
		);

		// Admin A's alert waited out the chat's spacing; without the budget it would go at `start`.
		expect(sentAt.get(admins[0]!)).toEqual([start + BOT_LIMITS.perChatMs]);
		expect(sentAt.get(admins[1]!)).toHaveLength(1);
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
