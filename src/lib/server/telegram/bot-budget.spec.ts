import { describe, expect, it } from 'vitest';
import { FakeClock } from '../time/clock.ts';
import { BOT_LIMITS, BotBudget } from './bot-budget.ts';

/** Largest number of sends inside any one second. */
function busiestSecond(times: number[]): number {
	return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + 1000).length));
}

describe('the bot-wide send budget', () => {
	it('spaces bulk sends to their own pace, and one a second per chat', () => {
		const clock = new FakeClock();
		const budget = new BotBudget(clock, { perSecond: 30, bulkPerSecond: 25, guestReserve: 5, perChatMs: 1000 });
		budget.book(1n);
		expect(budget.waitMs(2n)).toBe(40);
		expect(budget.waitMs(1n)).toBe(1000);
		clock.advance(40);
		budget.book(2n);
		clock.advance(500);
		expect(budget.waitMs(3n)).toBe(0);
		expect(budget.waitMs(1n)).toBe(460);
	});

	it('holds the bulk lane for a 429’s retry_after, and guests still get their messages', () => {
		const clock = new FakeClock();
		const budget = new BotBudget(clock);
		budget.holdBulk(clock.now().getTime() + 3000);
		expect(budget.holdMs()).toBe(3000);
		expect(budget.waitMs(9n)).toBe(3000);
		expect(budget.tryTake(10n)).toBe(true);
		clock.advance(3000);
		expect(budget.holdMs()).toBe(0);
		expect(budget.waitMs(9n)).toBe(0);
	});

	it('never lets a guest message wait behind a broadcast: bulk leaves the reserve of every second free', () => {
		const clock = new FakeClock();
		const budget = new BotBudget(clock, { ...BOT_LIMITS, bulkPerSecond: 1000 });
		const bulkCap = BOT_LIMITS.perSecond - BOT_LIMITS.guestReserve;
		for (let chat = 0; chat < bulkCap; chat++) {
			expect(budget.waitMs(BigInt(chat))).toBe(0);
			budget.book(BigInt(chat));
			clock.advance(1);
		}
		expect(budget.waitMs(999n)).toBeGreaterThan(0);
		const guests = Array.from({ length: 50 }, (_, i) => BigInt(10_000 + i));
		expect(guests.filter((chat) => budget.tryTake(chat)).length).toBe(BOT_LIMITS.guestReserve);
		expect(budget.isSpent()).toBe(true);
	});

	it('keeps guests, status edits and a broadcast together under the bot-wide limit in every second', () => {
		const clock = new FakeClock();
		const budget = new BotBudget(clock);
		const sent: number[] = [];
		const guestSent: number[] = [];
		let bulkChat = 0;
		let bulkDueAt = 0;
		for (let ms = 0; ms < 5000; ms += 5) {
			const now = clock.now().getTime();
			if (now >= bulkDueAt) {
				const wait = budget.waitMs(BigInt(bulkChat));
				if (wait === 0) {
					budget.book(BigInt(bulkChat++));
					sent.push(ms);
				} else bulkDueAt = now + wait;
			}
			// Guest traffic: every 25 ms a different guest wants a notice or an edit (40 a second, more than fits).
			if (ms % 25 === 0 && budget.tryTake(BigInt(50_000 + ms))) {
				sent.push(ms);
				guestSent.push(ms);
			}
			clock.advance(5);
		}
		expect(busiestSecond(sent)).toBeLessThanOrEqual(BOT_LIMITS.perSecond);
		// Guests are never starved: at least the reserve gets through in every whole second.
		for (let second = 0; second < 5; second++) {
			expect(guestSent.filter((t) => t >= second * 1000 && t < (second + 1) * 1000).length).toBeGreaterThanOrEqual(BOT_LIMITS.guestReserve);
		}
		expect(bulkChat).toBeGreaterThan(0);
	});
});
