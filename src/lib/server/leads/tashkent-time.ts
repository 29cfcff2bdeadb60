/**
 * The sales team works in Tashkent: the daily digest is once per Tashkent date and card times are
 * shown in Tashkent time. Computed with Intl, so a zone change would not need a code change.
 */
export const SALES_TIME_ZONE = 'Asia/Tashkent';

const parts = new Intl.DateTimeFormat('en-CA', {
	timeZone: SALES_TIME_ZONE,
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
	hourCycle: 'h23'
});

interface WallClock {
	date: string;
	hour: number;
	minute: number;
	second: number;
}

export function tashkentWallClock(at: Date): WallClock {
	const p = Object.fromEntries(parts.formatToParts(at).map((part) => [part.type, part.value]));
	return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute), second: Number(p.second) };
}

/** "YYYY-MM-DD" of the moment in Tashkent (settings.stickers_digest_last holds this form). */
export function tashkentDate(at: Date): string {
	return tashkentWallClock(at).date;
}

/** "2026-06-01 14:05" in Tashkent, for cards and digests. */
export function formatTashkent(iso: string): string {
	const wall = tashkentWallClock(new Date(iso));
	return `${wall.date} ${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
}

/** The UTC instant at which a Tashkent date begins. */
export function tashkentMidnight(date: string): Date {
	const guess = Date.parse(`${date}T00:00:00Z`);
	const wall = tashkentWallClock(new Date(guess));
	const wallMs = Date.parse(`${wall.date}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}Z`);
	return new Date(guess - (wallMs - guess));
}

/** The Tashkent date before `date`. */
export function previousDate(date: string): string {
	return new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function pad(n: number): string {
	return String(n).padStart(2, '0');
}
