import { describe, expect, it } from 'vitest';
import { FakeClock, SECOND } from '../time/clock.ts';
import { EditPacer, type GuestPlaces, STATUS_EDIT_EVERY_MS, STATUS_EDITS_PER_SECOND } from './edit-pacer.ts';

/** A bot budget with room for every edit: these tests are about the pacer's own limits. */
const roomyBudget: GuestPlaces = {
	tryTake: async () => true,
	settle: async () => undefined,
	noteFlood: async () => undefined,
	isSpent: async () => false
};

describe('pacing the status edits', () => {
	it('edits one guest at most once every 5 s, counting from when the guest last saw the message change', async () => {
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const pacer = new EditPacer(roomyBudget);
		const sentAt = clock.now().getTime();
		expect(await pacer.take(1n, sentAt, clock.now().getTime())).toBe(false); // just sent
		clock.advance(STATUS_EDIT_EVERY_MS - 1);
		expect(await pacer.take(1n, sentAt, clock.now().getTime())).toBe(false);
		clock.advance(1);
		expect(await pacer.take(1n, sentAt, clock.now().getTime())).toBe(true);
		clock.advance(SECOND);
		expect(await pacer.take(1n, sentAt, clock.now().getTime())).toBe(false); // the edit just made counts
		expect(await pacer.take(2n, 0, clock.now().getTime())).toBe(true); // another guest is not held up
		clock.advance(STATUS_EDIT_EVERY_MS - SECOND);
		expect(await pacer.take(1n, sentAt, clock.now().getTime())).toBe(true);
	});

	it('makes at most 12 edits in any second overall, inside the bot-wide ~30 messages a second with the notices', async () => {
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const pacer = new EditPacer(roomyBudget);
		const guests = Array.from({ length: 50 }, (_, i) => BigInt(1000 + i));
		const granted = async (at: number) => {
			let count = 0;
			for (const chat of guests) if (await pacer.take(chat, 0, at)) count++;
			return count;
		};
		expect(await granted(clock.now().getTime())).toBe(STATUS_EDITS_PER_SECOND);
		expect(await pacer.isSpent(clock.now().getTime())).toBe(true);
		clock.advance(SECOND - 1);
		expect(await granted(clock.now().getTime())).toBe(0);
		clock.advance(1);
		expect(await pacer.isSpent(clock.now().getTime())).toBe(false);
		expect(await granted(clock.now().getTime())).toBe(STATUS_EDITS_PER_SECOND);
	});
});
