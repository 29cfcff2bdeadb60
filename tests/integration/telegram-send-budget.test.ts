import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import { BOT_LIMITS, BotBudget, type Lane } from '../../src/lib/server/telegram/bot-budget.ts';
import { HELD_POLL_MS } from '../../src/lib/server/telegram/send-budget-rules.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { testsRunOnPostgres } from '../helpers/pg-test-db.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * Both workers ask at the same moment. On PostgreSQL the two clients' transactions run at once (the
 * key locks decide). Two SQLite clients in one process cannot: the driver is synchronous, so one
 * client's wait for the file's write lock would block the holder's commit — the asks go one after
 * the other, each its own BEGIN IMMEDIATE transaction on its own client (separate worker processes
 * on one SQLite file are not a supported set-up; the instance lock refuses the second).
 */
function atOnce<T>(steps: (() => Promise<T>)[]): Promise<T[]> {
	if (testsRunOnPostgres()) return Promise.all(steps.map((step) => step()));
	return steps.reduce<Promise<T[]>>(async (done, step) => [...(await done), await step()], Promise.resolve([]));
}

/**
 * The bot's one send budget in the database: two BotBudgets on two database clients of one
 * database (what two workers are to each other) — SQLite file, or PostgreSQL with
 * TEST_DB_ENGINE=postgresql — never together exceed the bot's limits. Time is one FakeClock; the
 * test counts places taken per window, never real timing.
 */
describe('the Telegram send budget shared through the database', () => {
	const openDb = useTestDb('send-budget-');
	const extra: Db[] = [];
	afterEach(async () => {
		for (const db of extra.splice(0)) await db.$disconnect();
	});

	async function twoWorkers(): Promise<{ clock: FakeClock; budgets: [BotBudget, BotBudget]; reopen: () => Db }> {
		const made = await openDb();
		const other = made.reopen();
		extra.push(other);
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const reopen = () => {
			const db = made.reopen();
			extra.push(db);
			return db;
		};
		return { clock, budgets: [new BotBudget(made.db, clock, 'test'), new BotBudget(other, clock, 'test')], reopen };
	}

	/** The most places in any rolling window of `windowMs`. */
	function busiest(times: number[], windowMs: number): number {
		return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));
	}

	it('two workers with broadcasts and guests never pass ~28 a second overall or one a second per chat', async () => {
		const { clock, budgets } = await twoWorkers();
		const start = clock.now().getTime();
		const taken: { at: number; chat: bigint; lane: Lane }[] = [];
		const bulkNext = [0, 0];
		const guests = Array.from({ length: 8 }, (_, i) => BigInt(5000 + i)); // both workers write to the same guests
		for (let step = 0; step < 200; step++) {
			const at = clock.now().getTime() - start;
			const wants: { budget: BotBudget; chat: bigint; lane: Lane; bulkOf?: number }[] = [
				...budgets.map((budget, n) => ({
					budget,
					chat: BigInt(100_000 * (n + 1) + bulkNext[n]!),
					lane: 'bulk' as const,
					bulkOf: n
				})),
				...budgets.map((budget, n) => ({ budget, chat: guests[(step + n) % guests.length]!, lane: 'guest' as const }))
			];
			if (step % 2 === 1) wants.reverse(); // neither worker always asks first
			const waits = await atOnce(wants.map((want) => () => want.budget.take(want.chat, want.lane)));
			for (const [i, wait] of waits.entries()) {
				const want = wants[i]!;
				if (wait > 0) continue;
				await want.budget.settle(want.chat); // the call is answered at once
				taken.push({ at, chat: want.chat, lane: want.lane });
				if (want.bulkOf !== undefined) bulkNext[want.bulkOf]!++;
			}
			clock.advance(10);
		}
		const times = taken.map((place) => place.at);
		expect(busiest(times, 1000)).toBeLessThanOrEqual(BOT_LIMITS.perSecond);
		expect(
			busiest(
				taken.filter((p) => p.lane === 'bulk').map((p) => p.at),
				1000
			)
		).toBeLessThanOrEqual(BOT_LIMITS.perSecond - BOT_LIMITS.guestReserve);
		for (const chat of new Set(taken.map((place) => place.chat))) {
			expect(
				busiest(
					taken.filter((place) => place.chat === chat).map((place) => place.at),
					1000
				)
			).toBe(1);
		}
		// Both workers did send: the budget is shared, not one worker's alone.
		expect(bulkNext[0]).toBeGreaterThan(0);
		expect(bulkNext[1]).toBeGreaterThan(0);
		expect(bulkNext[0]! + bulkNext[1]!).toBeGreaterThan(20);
		expect(taken.filter((p) => p.lane === 'guest').length).toBeGreaterThan(10);
	});

	it('keeps a 429’s hold for broadcasts across workers and a restart, while guests still get places', async () => {
		const { clock, budgets, reopen } = await twoWorkers();
		await budgets[0].noteFlood(5000);
		const restarted = new BotBudget(reopen(), clock, 'test');
		expect(await restarted.holdMs()).toBe(5000);
		expect(await budgets[1].take(42n, 'bulk')).toBe(5000);
		expect(await restarted.tryTake(43n)).toBe(true);
		await restarted.holdBulk(clock.now().getTime() + 1000); // a shorter hold does not shorten it
		expect(await budgets[1].holdMs()).toBe(5000);
		clock.advance(5000);
		expect(await budgets[1].take(42n, 'bulk')).toBe(0);
	});

	it('lets two workers post at most 20 messages to the sales group in any rolling minute', async () => {
		const { clock, budgets } = await twoWorkers();
		const start = clock.now().getTime();
		const posted: number[] = [];
		for (let step = 0; step < 180; step++) {
			const answers = await atOnce(budgets.map((budget) => () => budget.tryTake(-1001234567n)));
			for (const [n, yes] of answers.entries()) {
				if (!yes) continue;
				await budgets[n]!.settle(-1001234567n);
				posted.push(clock.now().getTime() - start);
			}
			clock.advance(BOT_LIMITS.perGroupMs / 4); // a quarter of the group's spacing: a place comes free on a step
		}
		expect(busiest(posted, 60_000)).toBe(20);
		expect(posted.length).toBe(45); // 180 steps of a quarter spacing: one place every fourth step
	});

	it('holds a chat while a stalled worker’s call is unanswered, and spaces its next place from the answer', async () => {
		const { clock, budgets } = await twoWorkers();
		const [stalled, other] = budgets;
		expect(await stalled.take(7n, 'guest')).toBe(0);
		clock.advance(1500); // the stalled worker has not called yet; a place-only budget would give one now
		expect(await other.take(7n, 'guest')).toBe(HELD_POLL_MS);
		expect(await other.take(-100777n, 'guest')).toBe(0); // other chats are not held
		await stalled.settle(7n); // its call was answered now
		expect(await other.take(7n, 'guest')).toBe(BOT_LIMITS.perChatMs);
		clock.advance(BOT_LIMITS.perChatMs);
		expect(await other.take(7n, 'guest')).toBe(0);
	});

	it('frees a chat held by a worker that never answered after answerTimeoutMs; its late settle leaves the next place alone', async () => {
		const { clock, budgets, reopen } = await twoWorkers();
		const [dead, other] = budgets;
		expect(await dead.take(7n, 'bulk')).toBe(0);
		clock.advance(BOT_LIMITS.answerTimeoutMs);
		expect(await other.take(7n, 'guest')).toBe(0);
		await dead.settle(7n); // too late: the place it held was given again
		const third = new BotBudget(reopen(), clock, 'test');
		expect(await third.take(7n, 'guest')).toBe(HELD_POLL_MS); // still held by the other worker's place
		await other.settle(7n);
		expect(await third.take(7n, 'guest')).toBe(BOT_LIMITS.perChatMs);
	});
});
