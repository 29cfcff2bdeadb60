import { describe, expect, it } from 'vitest';
import { HOUR } from './clock.ts';
import { dateIn, midnightIn, shiftDate, startOfDayIn, startOfNextDayIn, wallClockIn } from './zoned-day.ts';

const LA = 'America/Los_Angeles';
const TASHKENT = 'Asia/Tashkent';
const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe('days in a zone with daylight saving (America/Los_Angeles)', () => {
	it('a summer day begins at 07:00 UTC and a winter day at 08:00 UTC', () => {
		expect(iso(midnightIn('2026-07-15', LA))).toBe('2026-07-15T07:00:00.000Z');
		expect(iso(midnightIn('2026-01-15', LA))).toBe('2026-01-15T08:00:00.000Z');
	});

	it('the spring switch day (02:00 → 03:00) is 23 hours long', () => {
		const start = midnightIn('2026-03-08', LA);
		const next = midnightIn('2026-03-09', LA);
		expect(iso(start)).toBe('2026-03-08T08:00:00.000Z');
		expect(iso(next)).toBe('2026-03-09T07:00:00.000Z');
		expect(next.getTime() - start.getTime()).toBe(23 * HOUR);
		// Just before and just after the switch are the same day.
		expect(iso(startOfDayIn(at('2026-03-08T09:59:59.999Z'), LA))).toBe('2026-03-08T08:00:00.000Z');
		expect(wallClockIn(at('2026-03-08T10:00:00.000Z'), LA)).toEqual({
			date: '2026-03-08',
			hour: 3,
			minute: 0,
			second: 0
		});
		expect(iso(startOfDayIn(at('2026-03-08T10:00:00.000Z'), LA))).toBe('2026-03-08T08:00:00.000Z');
		expect(iso(startOfNextDayIn(at('2026-03-08T10:00:00.000Z'), LA))).toBe('2026-03-09T07:00:00.000Z');
	});

	it('the autumn switch day (02:00 → 01:00) is 25 hours long', () => {
		const start = midnightIn('2026-11-01', LA);
		const next = midnightIn('2026-11-02', LA);
		expect(iso(start)).toBe('2026-11-01T07:00:00.000Z');
		expect(iso(next)).toBe('2026-11-02T08:00:00.000Z');
		expect(next.getTime() - start.getTime()).toBe(25 * HOUR);
		// 01:30 happens twice; both belong to the same day.
		expect(wallClockIn(at('2026-11-01T08:30:00.000Z'), LA).hour).toBe(1);
		expect(wallClockIn(at('2026-11-01T09:30:00.000Z'), LA).hour).toBe(1);
		expect(iso(startOfDayIn(at('2026-11-01T09:30:00.000Z'), LA))).toBe('2026-11-01T07:00:00.000Z');
		expect(iso(startOfNextDayIn(at('2026-11-01T09:30:00.000Z'), LA))).toBe('2026-11-02T08:00:00.000Z');
	});

	it('the day before a switch ends where the switch day begins', () => {
		expect(iso(startOfNextDayIn(at('2026-03-07T20:00:00.000Z'), LA))).toBe('2026-03-08T08:00:00.000Z');
		expect(iso(startOfNextDayIn(at('2026-10-31T20:00:00.000Z'), LA))).toBe('2026-11-01T07:00:00.000Z');
	});
});

describe('midnight edges', () => {
	it('midnight itself belongs to the new day, one millisecond before to the old one', () => {
		expect(dateIn(at('2026-06-15T07:00:00.000Z'), LA)).toBe('2026-06-15');
		expect(iso(startOfDayIn(at('2026-06-15T07:00:00.000Z'), LA))).toBe('2026-06-15T07:00:00.000Z');
		expect(dateIn(at('2026-06-15T06:59:59.999Z'), LA)).toBe('2026-06-14');
		expect(iso(startOfDayIn(at('2026-06-15T06:59:59.999Z'), LA))).toBe('2026-06-14T07:00:00.000Z');
		expect(iso(startOfNextDayIn(at('2026-06-15T06:59:59.999Z'), LA))).toBe('2026-06-15T07:00:00.000Z');
	});

	it('in Tashkent (UTC+5 all year) a date begins at 19:00 UTC the evening before', () => {
		expect(iso(midnightIn('2026-06-01', TASHKENT))).toBe('2026-05-31T19:00:00.000Z');
		expect(iso(midnightIn('2026-01-01', TASHKENT))).toBe('2025-12-31T19:00:00.000Z');
		expect(dateIn(at('2026-05-31T18:59:59.999Z'), TASHKENT)).toBe('2026-05-31');
		expect(wallClockIn(at('2026-05-31T19:00:00.000Z'), TASHKENT)).toEqual({
			date: '2026-06-01',
			hour: 0,
			minute: 0,
			second: 0
		});
		expect(wallClockIn(at('2026-06-01T09:05:07.300Z'), TASHKENT)).toEqual({
			date: '2026-06-01',
			hour: 14,
			minute: 5,
			second: 7
		});
		expect(iso(startOfNextDayIn(at('2026-12-31T20:00:00.000Z'), TASHKENT))).toBe('2027-01-01T19:00:00.000Z');
	});

	it('UTC days are plain', () => {
		expect(iso(startOfDayIn(at('2026-03-01T23:59:59.999Z'), 'UTC'))).toBe('2026-03-01T00:00:00.000Z');
		expect(iso(startOfNextDayIn(at('2026-03-01T00:00:00.000Z'), 'UTC'))).toBe('2026-03-02T00:00:00.000Z');
	});

	it('where clocks jump from 00:00 to 01:00 the day begins at the jump (America/Santiago)', () => {
		expect(iso(midnightIn('2026-09-06', 'America/Santiago'))).toBe('2026-09-06T04:00:00.000Z');
		expect(dateIn(at('2026-09-06T03:59:59.999Z'), 'America/Santiago')).toBe('2026-09-05');
		// The autumn switch there turns 24:00 back to 23:00: the next date begins after the repeated hour.
		expect(iso(midnightIn('2026-04-05', 'America/Santiago'))).toBe('2026-04-05T04:00:00.000Z');
	});

	it('where clocks go from 01:00 back to 00:00 the day begins at the first midnight (America/Havana)', () => {
		expect(iso(midnightIn('2026-11-01', 'America/Havana'))).toBe('2026-11-01T04:00:00.000Z');
		expect(iso(startOfDayIn(at('2026-11-01T05:30:00.000Z'), 'America/Havana'))).toBe('2026-11-01T04:00:00.000Z');
	});
});

describe('shiftDate', () => {
	it('crosses months, years and leap days', () => {
		expect(shiftDate('2026-01-01', -1)).toBe('2025-12-31');
		expect(shiftDate('2024-02-28', 1)).toBe('2024-02-29');
		expect(shiftDate('2026-03-08', 1)).toBe('2026-03-09');
		expect(shiftDate('2026-03-31', 0)).toBe('2026-03-31');
	});
});
