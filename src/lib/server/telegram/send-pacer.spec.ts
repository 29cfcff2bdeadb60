import { describe, expect, it } from 'vitest';
import { FakeClock } from '../time/clock.ts';
import { SendPacer } from './send-pacer.ts';

describe('the bulk-send pacer', () => {
	it('spaces sends to stay under the overall rate, and one a second per chat', () => {
		const clock = new FakeClock();
		const pacer = new SendPacer(clock, { perSecond: 25, perChatMs: 1000 });
		pacer.book(1n);
		expect(pacer.waitMs(2n)).toBe(40);
		expect(pacer.waitMs(1n)).toBe(1000);
		clock.advance(40);
		pacer.book(2n);
		clock.advance(500);
		expect(pacer.waitMs(3n)).toBe(0);
		expect(pacer.waitMs(1n)).toBe(460);
	});

	it('holds every send for a 429’s retry_after', () => {
		const clock = new FakeClock();
		const pacer = new SendPacer(clock);
		pacer.holdAll(clock.now().getTime() + 3000);
		expect(pacer.holdMs()).toBe(3000);
		expect(pacer.waitMs(9n)).toBe(3000);
		clock.advance(3000);
		expect(pacer.holdMs()).toBe(0);
		expect(pacer.waitMs(9n)).toBe(0);
	});
});
