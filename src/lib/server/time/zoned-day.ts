import { DAY } from './clock.ts';

/**
 * Calendar days in a named time zone, with the built-in Intl API: the zone database decides
 * offsets and daylight saving, so no zone rule is written here. A "date" is 'YYYY-MM-DD' text.
 * Days are not always 24 hours long: a switch day is 23 or 25, and in a few zones midnight
 * itself is skipped or happens twice; a day starts at the first instant that carries its date.
 */
export interface WallClock {
	date: string;
	hour: number;
	minute: number;
	second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit'
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/** What a wall clock in `timeZone` shows at `at`. */
export function wallClockIn(at: Date, timeZone: string): WallClock {
	const p = Object.fromEntries(
		formatterFor(timeZone)
			.formatToParts(at)
			.map((part) => [part.type, part.value])
	);
	return {
		date: `${p.year}-${p.month}-${p.day}`,
		hour: Number(p.hour),
		minute: Number(p.minute),
		second: Number(p.second)
	};
}

/** 'YYYY-MM-DD' of the day in `timeZone` that contains `at`. */
export function dateIn(at: Date, timeZone: string): string {
	return wallClockIn(at, timeZone).date;
}

/** The UTC instant at which `date` begins in `timeZone`. */
export function midnightIn(date: string, timeZone: string): Date {
	const wall = Date.parse(`${date}T00:00:00Z`);
	// The offsets a day either side cover both sides of a switch near midnight.
	const candidates = [...new Set([wall - offsetMs(wall - DAY, timeZone), wall - offsetMs(wall + DAY, timeZone)])].sort(
		(a, b) => a - b
	);
	// Midnight happens twice when clocks go back across it: the day starts at the first one.
	const exact = candidates.find((at) => at + offsetMs(at, timeZone) === wall);
	if (exact !== undefined) return new Date(exact);
	// Midnight is skipped when clocks go forward across it: the day starts at the switch.
	return new Date(firstInstantOf(date, timeZone, candidates[0] as number, candidates[candidates.length - 1] as number));
}

/** The instant the day in `timeZone` that contains `at` began. */
export function startOfDayIn(at: Date, timeZone: string): Date {
	return midnightIn(dateIn(at, timeZone), timeZone);
}

/** The instant the day after the one in `timeZone` that contains `at` begins. */
export function startOfNextDayIn(at: Date, timeZone: string): Date {
	return midnightIn(shiftDate(dateIn(at, timeZone), 1), timeZone);
}

/** The calendar date `days` after (or before, when negative) `date`. */
export function shiftDate(date: string, days: number): string {
	return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** The zone's offset from UTC at `atMs`, in ms (positive east of Greenwich). */
function offsetMs(atMs: number, timeZone: string): number {
	const wall = wallClockIn(new Date(atMs), timeZone);
	const wallMs = Date.parse(`${wall.date}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}Z`);
	return wallMs - Math.floor(atMs / 1000) * 1000;
}

/** The first instant in (before, after] whose date in `timeZone` is `date`; `before` is still the day before. */
function firstInstantOf(date: string, timeZone: string, before: number, after: number): number {
	let lo = before;
	let hi = after;
	while (hi - lo > 1) {
		const mid = lo + Math.floor((hi - lo) / 2);
		if (dateIn(new Date(mid), timeZone) < date) lo = mid;
		else hi = mid;
	}
	return hi;
}

function pad(n: number): string {
	return String(n).padStart(2, '0');
}
