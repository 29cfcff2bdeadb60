import { JOB_STATUSES, type JobStatus } from '../../schemas/job-status.ts';
import type { Db } from '../db/client.ts';
import { Prisma } from '../db/generated/client.ts';

/**
 * What /api/v1 reports about events, packs and jobs. A job belongs to an event through its
 * snapshot (job_snapshots.event_id); a kiosk session through kiosk_sessions.event_id. A pack counts
 * as delivered once its link was sent.
 */
export interface EventStats {
	id: number;
	name: string;
	state: string;
	startsOn: string | null;
	endsOn: string | null;
	sessions: number;
	jobs: number;
	packsDelivered: number;
}

export type JobCounts = Record<JobStatus, number>;

export async function listEventStats(db: Db, eventId?: number): Promise<EventStats[]> {
	const onlyEvent = eventId === undefined ? Prisma.empty : Prisma.sql`WHERE e.id = ${eventId}`;
	const rows = await db.$queryRaw<
		{
			id: number;
			name: string;
			state: string;
			starts_on: string | null;
			ends_on: string | null;
			sessions: bigint | number;
			jobs: bigint | number;
			packs: bigint | number;
		}[]
	>`
		SELECT e.id, e.name, e.state, e.starts_on, e.ends_on,
		   (SELECT COUNT(*) FROM kiosk_sessions ks WHERE ks.event_id = e.id) AS sessions,
		   (SELECT COUNT(*) FROM job_snapshots s WHERE s.event_id = e.id) AS jobs,
		   (SELECT COUNT(*) FROM job_snapshots s JOIN jobs j ON j.job_id = s.job_id WHERE s.event_id = e.id AND j.link_sent_at IS NOT NULL) AS packs
		FROM events e ${onlyEvent} ORDER BY e.id`;
	return rows.map((r) => ({
		id: Number(r.id),
		name: r.name,
		state: r.state,
		startsOn: r.starts_on,
		endsOn: r.ends_on,
		sessions: Number(r.sessions),
		jobs: Number(r.jobs),
		packsDelivered: Number(r.packs)
	}));
}

/** Per outfit (jobs.template_id) of one event: how many packs were asked for and how they stand. */
export async function packStatsOfEvent(
	db: Db,
	eventId: number
): Promise<{ templateId: string; jobs: JobCounts; delivered: number }[]> {
	const rows = await db.$queryRaw<
		{ template_id: string; status: string; n: bigint | number; delivered: bigint | number }[]
	>`
		SELECT j.template_id, j.status, COUNT(*) AS n, SUM(CASE WHEN j.link_sent_at IS NULL THEN 0 ELSE 1 END) AS delivered
		FROM job_snapshots s JOIN jobs j ON j.job_id = s.job_id
		WHERE s.event_id = ${eventId}
		GROUP BY j.template_id, j.status ORDER BY j.template_id`;
	const byTemplate = new Map<string, { templateId: string; jobs: JobCounts; delivered: number }>();
	for (const row of rows) {
		const entry = byTemplate.get(row.template_id) ?? { templateId: row.template_id, jobs: emptyCounts(), delivered: 0 };
		if ((JOB_STATUSES as readonly string[]).includes(row.status)) entry.jobs[row.status as JobStatus] += Number(row.n);
		entry.delivered += Number(row.delivered);
		byTemplate.set(row.template_id, entry);
	}
	return [...byTemplate.values()];
}

/** Jobs by status, all of them or those created since a moment. */
export async function jobsSummary(
	db: Db,
	since?: string
): Promise<{ byStatus: JobCounts; total: number; packsDelivered: number }> {
	const where = since ? { createdAt: { gte: since } } : {};
	const [grouped, packsDelivered] = await Promise.all([
		db.job.groupBy({ by: ['status'], where, _count: { _all: true } }),
		db.job.count({ where: { ...where, linkSentAt: { not: null } } })
	]);
	const byStatus = emptyCounts();
	for (const group of grouped)
		if ((JOB_STATUSES as readonly string[]).includes(group.status))
			byStatus[group.status as JobStatus] = group._count._all;
	return { byStatus, total: grouped.reduce((sum, group) => sum + group._count._all, 0), packsDelivered };
}

function emptyCounts(): JobCounts {
	return Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as JobCounts;
}
