import { dateIn, startOfDayIn, startOfNextDayIn } from '../time/zoned-day.ts';

/**
 * The image provider's quota day: its per-day request quotas reset at midnight Pacific time, so
 * "requests today" counts from there and a quota-exhausted job waits for the next one.
 */
const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/** 'YYYY-MM-DD' of the Pacific day containing `at`. */
export function pacificQuotaDay(at: Date): string {
	return dateIn(at, QUOTA_TIME_ZONE);
}

/** The instant the Pacific day containing `at` began. */
export function pacificDayStart(at: Date): Date {
	return startOfDayIn(at, QUOTA_TIME_ZONE);
}

/** The next midnight Pacific after `at` (when per-day quotas reset). */
export function nextPacificMidnight(at: Date): Date {
	return startOfNextDayIn(at, QUOTA_TIME_ZONE);
}
