import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { BOT_LIMITS, BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { createLeadsTaskDeps } from '../../src/worker/tasks/leads-deps.ts';
import { publishPendingLeads } from '../../src/worker/tasks/leads-publish.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { addLead, GROUP, groupMessages, startLeadsWorld, type LeadsWorld } from './leads-world.ts';

/**
 * The sales group's cards go through the bot's one send budget (the worker's leads client,
 * createLeadsTaskDeps): Telegram takes 20 messages a minute in a group, so a burst of leads is
 * posted one card every 3 s by the FakeClock — never more than 20 in any rolling minute, and a
 * guest's messages meanwhile are not held up by it.
 */
describe('sales-group cards in the shared send budget', () => {
	const tempDir = useTempDir('leads-send-budget-');
	let world: LeadsWorld;
	afterEach(async () => world?.close());

	it('posts 25 new leads’ cards at most 20 in any rolling minute, all of them in the end', async () => {
		world = await startLeadsWorld(tempDir());
		const clock = world.clock;
		const postedAt: number[] = [];
		const budget = new BotBudget(world.db, clock, 'test');
		const deps = createLeadsTaskDeps(world.config, world.db, clock, silentLogger, {
			budget,
			sleep: async (ms) => clock.advance(ms)
		});
		expect(deps.chatId).toBe(BigInt(GROUP));
		deps.api.config.use(async (prev, method, payload, signal) => {
			const response = await prev(method, payload, signal);
			if (method === 'sendMessage') postedAt.push(clock.now().getTime());
			return response;
		});
		for (let i = 0; i < 25; i++) await addLead(world, { name: `Guest ${i}` });
		const start = clock.now().getTime();
		let posted = 0;
		for (let pass = 0; pass < 5 && posted < 25; pass++) posted += await publishPendingLeads(deps); // 10 cards a pass
		expect(posted).toBe(25);
		expect(await groupMessages(world)).toHaveLength(25);
		const inAnyMinute = Math.max(...postedAt.map((t) => postedAt.filter((u) => u >= t && u < t + 60_000).length));
		expect(inAnyMinute).toBe(20);
		expect(postedAt.at(-1)! - start).toBe(24 * BOT_LIMITS.perGroupMs);
		// A guest's private chat is another key: it gets its place at once.
		expect(await budget.tryTake(777n)).toBe(true);
	});
});
