import { describe, expect, it } from 'vitest';
import type { Bot } from 'grammy';
import { EMULATOR_BOT_TOKEN, parseConfig } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS } from '../../src/lib/server/telegram/bot-budget.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';
import { createBot } from '../../src/worker/bot/index.ts';
import type { BotContext } from '../../src/worker/bot/context.ts';
import { startedUser } from '../../tools/telegram-emulator/test-support.ts';
import { historyWriterFor } from '../helpers/bot-deps.ts';
import { localFileStore } from '../helpers/file-store.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useSendBudgetWorld, type Send } from '../helpers/send-budget-world.ts';

/**
 * The bot's own replies take their places in the shared send budget: two workers' bots (each its
 * own database client on PostgreSQL; on SQLite the one worker's client, as there is one worker)
 * writing to one guest through the Telegram emulator are one second apart by the FakeClock, and a
 * 429 the bot gets becomes the hold every worker reads.
 */
describe('the bot’s replies wait for the shared send budget', () => {
	const sendBudgetWorld = useSendBudgetWorld('send-budget-bot-');

	async function world() {
		const world = await sendBudgetWorld();
		const { made, clock, emulator } = world;
		const config = parseConfig(
			{ NODE_ENV: 'test', DATA_DIR: made.dir, DB_PATH: made.dbPath, TELEGRAM_API_ROOT: emulator.url },
			PROJECT_ROOT
		);
		/** When each message left, by the FakeClock (recorded once the budget let it go). */
		const sends: Send[] = [];
		const botOn = (db: Db): Bot<BotContext> => {
			const bot = createBot(
				{ token: EMULATOR_BOT_TOKEN, apiRoot: emulator.url },
				{
					db,
					clock,
					logger: silentLogger,
					config,
					fileStore: localFileStore(made.dir),
					sendPacing: world.pacingOn(db),
					runtime: new RuntimeSettings({ db, clock, config }),
					history: historyWriterFor(db, config)
				}
			);
			world.recordSends(bot.api, 'sendMessage', sends);
			return bot;
		};
		return { ...world, sends, bots: [botOn(world.db), botOn(world.otherDb)] as const };
	}

	it('keeps two workers’ messages to one guest a second apart, replies to updates included', async () => {
		const { db, emulator, sends, waits, bots, onClose } = await world();
		const chat = await startedUser(emulator);
		const [first, second] = bots;
		await first.init();
		const polling = first.start({ allowed_updates: ['message'], timeout: 1 });
		onClose(async () => {
			await first.stop();
			await polling.catch(() => undefined);
		});
		const sentCount = async (count: number) => {
			const deadline = Date.now() + 10_000;
			while (sends.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
			expect(sends).toHaveLength(count);
		};
		// One after the other (so each moment recorded is the one its place was taken at): the guest
		// asks, the other worker writes to the same guest, and again. With a budget per worker, or
		// replies outside it, the other worker's message would go at once.
		await sentCount(1); // the reply to the guest's first /start
		sends.length = 0;
		for (const round of [1, 2]) {
			await emulator.control.sendUserMessage({ user_id: chat, text: '/help' });
			await sentCount(2 * round - 1);
			await second.api.sendMessage(chat, `from the other worker ${round}`);
			await sentCount(2 * round);
		}
		const sorted = sends.map((send) => send.at).sort((a, b) => a - b);
		for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(1000);
		// Each call settled its place once answered: the chat is not held, and no message waited for a
		// place's 35 s timeout — only for the spacing from the previous answer.
		expect(sorted.at(-1)! - sorted[0]!).toBeLessThan(4 * BOT_LIMITS.perChatMs + 1000);
		const row = await db.telegramSendBudget.findUnique({ where: { key: `chat:${chat}` } });
		expect(row?.recent).toBe('');
		expect(waits.length).toBeGreaterThan(0);
		const fromBot = (await emulator.control.chatMessages(chat)).filter((message) => message.from_bot);
		expect(fromBot).toHaveLength(5); // with the reply to the first /start
	});

	it('turns a 429 the bot gets into the hold every worker reads', async () => {
		const { db, clock, emulator, bots } = await world();
		const chat = await startedUser(emulator);
		const start = clock.now().getTime();
		// retry_after 1: the bot's auto-retry really waits it out, then sends again (a place of its own).
		await emulator.control.injectFault({ kind: '429', retry_after: 1, method: 'sendMessage' });
		await bots[0].api.sendMessage(chat, 'hello');
		const hold = await db.telegramSendBudget.findUnique({ where: { key: 'hold' } });
		expect(Number(hold?.nextAt)).toBe(start + 1000);
	});
});
