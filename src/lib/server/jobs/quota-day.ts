/**
 * The provider's quota day: Gemini's daily quotas reset at midnight Pacific time (PRODUCT.md H).
 * Built on Intl, so daylight saving is the time zone database's business.
 */
const ZONE = 'America/Los_Angeles';

/** 'YYYY-MM-DD' of the Pacific day containing `at`. */
export function pacificQuotaDay(at: Date): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The instant the Pacific day containing `at` began. */
export function pacificDayStart(at: Date): Date {
	const [y, m, d] = pacificQuotaDay(at).split('-').map(Number) as [number, number, number];
	return zonedMidnight(y, m, d);
}

/** The next midnight Pacific after `at` (when per-day quotas reset). */
export function nextPacificMidnight(at: Date): Date {
	const [y, m, d] = pacificQuotaDay(at).split('-').map(Number) as [number, number, number];
	return zonedMidnight(y, m, d + 1);
}

function zonedMidnight(y: number, m: number, d: number): Date {
	const utcGuess = new Date(Date.UTC(y, m - 1, d, 12));
	// Offset of the zone on that calendar day (taken at noon, away from a DST switch at 02:00).
	const name = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' }).formatToParts(utcGuess).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT-08:00';
	const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
	const offsetMin = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : -480;
	return new Date(Date.UTC(y, m - 1, d) - offsetMin * 60_000);
}
