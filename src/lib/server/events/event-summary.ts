import type { Db } from '../db/client.ts';

/**
 * One event's numbers for the console: guests (people who linked a session of the event), packs
 * made, failures, spend on its jobs, the median time from photo to link, and packs per hour.
 * Jobs belong to an event through job_snapshots, sessions through kiosk_sessions.event_id.
 */
export interface EventSummary {
	guests: number;
	packs: number;
	failures: number;
	spendUsd: number;
	/** Photo taken (job queued) → link sent (job done), median over done jobs; null before the first pack. */
	medianPhotoToLinkSeconds: number | null;
	/** Done packs per hour (UTC, `YYYY-MM-DDTHH`), oldest first, hours without packs included. */
	packsPerHour: { hour: string; packs: number }[];
}

export async function eventSummary(db: Db, eventId: number): Promise<EventSummary> {
	const tokens = (await db.kioskSession.findMany({ where: { eventId }, select: { sessionToken: true } })).map(
		(r) => r.sessionToken
	);
	const guests =
		tokens.length === 0
			? []
			: await db.session.findMany({
					where: { sessionToken: { in: tokens }, telegramUserId: { not: null } },
					distinct: ['telegramUserId'],
					select: { telegramUserId: true }
				});
	const jobIds = (await db.jobSnapshot.findMany({ where: { eventId }, select: { jobId: true } })).map((r) => r.jobId);
	const jobs = await db.job.findMany({
		where: { jobId: { in: jobIds } },
		select: { status: true, createdAt: true, updatedAt: true }
	});
	const spend = await db.apiUsage.aggregate({ where: { jobId: { in: jobIds } }, _sum: { estCostUsd: true } });
	const done = jobs.filter((j) => j.status === 'done');
	return {
		guests: guests.length,
		packs: done.length,
		failures: jobs.filter((j) => j.status === 'failed').length,
		spendUsd: spend._sum.estCostUsd ?? 0,
		medianPhotoToLinkSeconds: median(done.map((j) => (Date.parse(j.updatedAt) - Date.parse(j.createdAt)) / 1000)),
		packsPerHour: perHour(done.map((j) => j.updatedAt))
	};
}

function median(values: number[]): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const HOUR_MS = 3_600_000;

function perHour(stamps: string[]): { hour: string; packs: number }[] {
	if (stamps.length === 0) return [];
	const hours = stamps.map((s) => Math.floor(Date.parse(s) / HOUR_MS));
	const first = Math.min(...hours);
	const last = Math.max(...hours);
	const counts = new Map<number, number>();
	for (const h of hours) counts.set(h, (counts.get(h) ?? 0) + 1);
	// A long event is shown as its last 7 days of hours, so the chart stays readable.
	const from = Math.max(first, last - 24 * 7 + 1);
	return Array.from({ length: last - from + 1 }, (_, i) => ({
		hour: new Date((from + i) * HOUR_MS).toISOString().slice(0, 13),
		packs: counts.get(from + i) ?? 0
	}));
}
