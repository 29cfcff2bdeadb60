/**
 * Day boundaries in a time zone, with the built-in Intl API. The image provider's daily quota
 * resets at midnight Pacific time (PRODUCT H), so "requests today" counts from there.
 */
export const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/** The zone's offset from UTC at `at`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(at: Date, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit'
	}).formatToParts(at);
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
	const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
	return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The UTC instant of the most recent local midnight in `timeZone`. */
export function startOfDayIn(at: Date, timeZone: string): Date {
	const offset = zoneOffsetMs(at, timeZone);
	const local = new Date(at.getTime() + offset);
	const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
	// On a daylight-saving switch day the offset at midnight differs by an hour; use midnight's own.
	return new Date(localMidnight - zoneOffsetMs(new Date(localMidnight - offset), timeZone));
}

export function startOfUtcDay(at: Date): Date {
	return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
