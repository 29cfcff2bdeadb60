/**
 * The one source of "now" for every rule with a deadline, TTL, retention period or quota day.
 * Production code takes a Clock; tests pass a FakeClock and move it instead of sleeping.
 */
export interface Clock {
	now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
	#ms: number;
	constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
		this.#ms = new Date(start).getTime();
	}
	now(): Date {
		return new Date(this.#ms);
	}
	advance(ms: number): void {
		this.#ms += ms;
	}
	set(to: Date | string): void {
		this.#ms = new Date(to).getTime();
	}
}

/** ISO 8601 UTC text, the on-disk form of every timestamp (one format, so text order is time order). */
export function isoNow(clock: Clock): string {
	return clock.now().toISOString();
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
