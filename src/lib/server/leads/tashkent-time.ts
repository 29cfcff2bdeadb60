import { midnightIn, wallClockIn, type WallClock } from '../time/zoned-day.ts';

/**
 * The sales team works in Tashkent: the daily digest is once per Tashkent date and card times are
 * shown in Tashkent time. Computed with Intl, so a zone change would not need a code change.
 */
const SALES_TIME_ZONE = 'Asia/Tashkent';

/** The Tashkent wall clock at `at`; its date is the form settings.stickers_digest_last holds. */
export function tashkentWallClock(at: Date): WallClock {
	return wallClockIn(at, SALES_TIME_ZONE);
}

/** "2026-06-01 14:05" in Tashkent, for cards and digests. */
export function formatTashkent(iso: string): string {
	const wall = tashkentWallClock(new Date(iso));
	return `${wall.date} ${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
}

/** The UTC instant at which a Tashkent date begins. */
export function tashkentMidnight(date: string): Date {
	return midnightIn(date, SALES_TIME_ZONE);
}
