import { describe, expect, it } from 'vitest';
import {
	BOT_LIMITS,
	chatKey,
	HELD_POLL_MS,
	placeWait,
	settledRow,
	takePlace,
	type BotLimits,
	type BudgetRow,
	type Lane
} from './send-budget-rules.ts';

/** The table in memory: what BotBudget's take and settle do, without the database. */
class Rows {
	rows: BudgetRow[] = [];
	constructor(private readonly limits: BotLimits = BOT_LIMITS) {}
	wait(chatId: bigint, lane: Lane, now: number): number {
		return placeWait(this.rows, chatId, lane, now, this.limits);
	}
	/** A place whose call is answered at once (at `now`). */
	take(chatId: bigint, lane: Lane, now: number): boolean {
		if (!this.takeHeld(chatId, lane, now)) return false;
		this.settle(chatId, now);
		return true;
	}
	/** A place whose call is not answered yet. */
	takeHeld(chatId: bigint, lane: Lane, now: number): boolean {
		if (this.wait(chatId, lane, now) > 0) return false;
		for (const row of takePlace(this.rows, chatId, lane, now, this.limits, `place-${now}`)) this.#put(row);
		return true;
	}
	settle(chatId: bigint, answeredAt: number): void {
		this.#put(settledRow(chatKey(chatId), answeredAt, this.limits));
	}
	#put(row: BudgetRow): void {
		this.rows = [...this.rows.filter((r) => r.key !== row.key), row];
	}
	hold(until: number): void {
		this.rows.push({ key: 'hold', nextAt: BigInt(until), recent: '' });
	}
}

/** The most messages in any rolling window of `windowMs`. */
function busiest(times: number[], windowMs = 1000): number {
	return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));
}

describe('the send budget’s rules', () => {
	it('spaces bulk messages evenly and one chat 1.2 s apart', () => {
		const budget = new Rows({ ...BOT_LIMITS, bulkPerSecond: 25 });
		expect(budget.take(1n, 'bulk', 0)).toBe(true);
		expect(budget.wait(2n, 'bulk', 0)).toBe(40);
		expect(budget.wait(1n, 'bulk', 0)).toBe(1200);
		expect(budget.take(2n, 'bulk', 540)).toBe(true);
		expect(budget.wait(1n, 'bulk', 540)).toBe(660);
		expect(budget.wait(1n, 'guest', 540)).toBe(660); // the guest lane keeps the chat's spacing too
	});

	it('holds the bulk lane through a 429 but lets guests through', () => {
		const budget = new Rows();
		budget.hold(3000);
		expect(budget.wait(9n, 'bulk', 0)).toBe(3000);
		expect(budget.take(10n, 'guest', 0)).toBe(true);
		expect(budget.wait(9n, 'bulk', 3000)).toBe(0);
	});

	it('keeps the last places of a second for guests', () => {
		const budget = new Rows({ ...BOT_LIMITS, bulkPerSecond: Infinity }); // no even pace: only the second's cap
		for (let chat = 0; chat < BOT_LIMITS.perSecond - BOT_LIMITS.guestReserve; chat++)
			expect(budget.take(BigInt(chat), 'bulk', 0)).toBe(true);
		expect(budget.wait(999n, 'bulk', 0)).toBe(1000);
		const guests = Array.from({ length: 20 }, (_, i) => BigInt(10_000 + i));
		expect(guests.filter((chat) => budget.take(chat, 'guest', 0)).length).toBe(BOT_LIMITS.guestReserve);
	});

	it('lets at most 20 messages into a group chat in any rolling minute, and one a second to a guest', () => {
		const budget = new Rows();
		const group: number[] = [];
		const guest: number[] = [];
		for (let now = 0; now < 5 * 60_000; now += 100) {
			if (budget.take(-100123n, 'guest', now)) group.push(now);
			if (budget.take(7n, 'guest', now)) guest.push(now);
		}
		expect(busiest(group, 60_000)).toBe(20);
		expect(busiest(guest, 1000)).toBe(1);
	});

	it('keeps guests and a broadcast together under the bot-wide limit in every second, guests never starved', () => {
		const budget = new Rows();
		const sent: number[] = [];
		const guestSent: number[] = [];
		let bulkChat = 0;
		for (let now = 0; now < 5000; now += 5) {
			if (budget.take(BigInt(bulkChat), 'bulk', now)) {
				sent.push(now);
				bulkChat++;
			}
			// Every 25 ms a different guest wants a notice or an edit (40 a second, more than fits).
			if (now % 25 === 0 && budget.take(BigInt(50_000 + now), 'guest', now)) {
				sent.push(now);
				guestSent.push(now);
			}
		}
		expect(busiest(sent)).toBeLessThanOrEqual(BOT_LIMITS.perSecond);
		for (let second = 0; second < 5; second++) {
			expect(guestSent.filter((t) => t >= second * 1000 && t < (second + 1) * 1000).length).toBeGreaterThanOrEqual(
				BOT_LIMITS.guestReserve
			);
		}
		expect(bulkChat).toBeGreaterThan(0); // guests ask for more than fits: the broadcast gets what is left
	});

	it('spaces a chat from the previous call’s answer: a place not answered yet holds the chat', () => {
		const budget = new Rows();
		expect(budget.takeHeld(7n, 'guest', 0)).toBe(true);
		// The worker stalls 2 s before its call arrives: the chat is held, asked about again soon.
		expect(budget.wait(7n, 'guest', 1200)).toBe(HELD_POLL_MS);
		expect(budget.take(8n, 'guest', 1200)).toBe(true); // other chats are not held
		budget.settle(7n, 2000);
		expect(budget.wait(7n, 'guest', 2000)).toBe(BOT_LIMITS.perChatMs);
		expect(budget.wait(7n, 'guest', 3200)).toBe(0);

		expect(budget.takeHeld(-100123n, 'guest', 0)).toBe(true);
		budget.settle(-100123n, 1500);
		expect(budget.wait(-100123n, 'guest', 1500)).toBe(BOT_LIMITS.perGroupMs);
	});

	it('frees a chat whose place is never answered (its worker died) after answerTimeoutMs', () => {
		const budget = new Rows();
		expect(budget.takeHeld(7n, 'bulk', 0)).toBe(true);
		expect(budget.wait(7n, 'guest', BOT_LIMITS.answerTimeoutMs - HELD_POLL_MS / 2)).toBe(HELD_POLL_MS / 2);
		expect(budget.take(7n, 'guest', BOT_LIMITS.answerTimeoutMs)).toBe(true);
	});
});
