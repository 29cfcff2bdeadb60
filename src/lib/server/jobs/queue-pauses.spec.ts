import { describe, expect, it } from 'vitest';
import { pausedMsBetween, runningMsSince } from './queue-pauses.repository.ts';

const at = (hhmm: string) => new Date(`2026-03-01T${hhmm}:00.000Z`);
const MIN = 60_000;

describe('time the queue was running', () => {
	it('counts only the part of a pause inside the window', () => {
		const pauses = [{ startedAt: at('10:00'), endedAt: at('13:00') }];
		expect(pausedMsBetween(pauses, at('09:50'), at('13:05'))).toBe(180 * MIN);
		expect(pausedMsBetween(pauses, at('11:00'), at('11:30'))).toBe(30 * MIN);
		expect(runningMsSince(pauses, at('09:50'), at('13:05'))).toBe(15 * MIN);
	});

	it('an open pause runs to now; overlapping pauses are counted once', () => {
		const pauses = [
			{ startedAt: at('10:00'), endedAt: at('10:30') },
			{ startedAt: at('10:20'), endedAt: null }
		];
		expect(pausedMsBetween(pauses, at('09:00'), at('11:00'))).toBe(60 * MIN);
		expect(runningMsSince(pauses, at('09:00'), at('11:00'))).toBe(60 * MIN);
	});

	it('no pauses: running time is the time since queueing', () => {
		expect(runningMsSince([], at('09:00'), at('09:20'))).toBe(20 * MIN);
	});
});
