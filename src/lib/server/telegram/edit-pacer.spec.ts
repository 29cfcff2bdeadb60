import { describe, expect, it } from 'vitest';
import { FakeClock, SECOND } from '../time/clock.ts';
import { BotBudget } from './bot-budget.ts';
import { EditPacer, STATUS_EDIT_EVERY_MS, STATUS_EDITS_PER_SECOND } from './edit-pacer.ts';

describe('pacing the status edits', () => {
	it('edits one guest at most once every 5 s, counting from when the guest last saw the message change', () => {
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const pacer = new EditPacer(new BotBudget(clock));
		const sentAt = clock.now().getTime();
		expect(pacer.take(1n, sentAt, clock.now().getTime())).toBe(false); // just sent
		clock.advance(STATUS_EDIT_EVERY_MS - 1);
		expect(pacer.take(1n, sentAt, clock.now().getTime())).toBe(false);
		clock.advance(1);
		expect(pacer.take(1n, sentAt, clock.now().getTime())).toBe(true);
		clock.advance(SECOND);
		expect(pacer.take(1n, sentAt, clock.now().getTime())).toBe(false); // the edit just made counts
		expect(pacer.take(2n, 0, clock.now().getTime())).toBe(true); // another guest is not held up
		clock.advance(STATUS_EDIT_EVERY_MS - SECOND);
		expect(pacer.take(1n, sentAt, clock.now().getTime())).toBe(true);
	});

	it('makes at most 12 edits in any second overall, inside the bot-wide ~30 messages a second with the notices', () => {
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const pacer = new EditPacer(new BotBudget(clock));
		const guests = Array.from({ length: 50 }, (_, i) => BigInt(1000 + i));
		const granted = (at: number) => guests.filter((chat) => pacer.take(chat, 0, at)).length;
		expect(granted(clock.now().getTime())).toBe(STATUS_EDITS_PER_SECOND);
		expect(pacer.isSpent(clock.now().getTime())).toBe(true);
		clock.advance(SECOND - 1);
		expect(granted(clock.now().getTime())).toBe(0);
		clock.advance(1);
		expect(pacer.isSpent(clock.now().getTime())).toBe(false);
		expect(granted(clock.now().getTime())).toBe(STATUS_EDITS_PER_SECOND);
	});
});
