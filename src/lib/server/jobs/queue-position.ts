import type { Db } from '../db/client.ts';
import { HOUR, type Clock } from '../time/clock.ts';
import { ACTIVE_JOB_STATUSES, jobStatusSchema, type JobStatus } from '../../schemas/job-status.ts';
import type { QueueView } from '../../schemas/kiosk.ts';

/**
 * "You are #N, about M min" — the same numbers for the kiosk's "being drawn" screen and the
 * guest's status message in the bot. A queued job's place is its rank among the queued jobs in
 * claim order (created_at, then job_id: the order claimNextJob takes them); the estimate spreads
 * the typical job time over the worker slots. The typical time is measured, photo (created_at) to
 * link (link_sent_at): the median of the job's own event's last EVENT_SAMPLE deliveries, so a
 * guest hears how this event runs (an event on the offline provider delivers in seconds, one on a
 * busy image model in minutes); for an event with none yet, the median of every job delivered in
 * the last hour; with none at all, DEFAULT_JOB_SECONDS stands in.
 */
export const DEFAULT_JOB_SECONDS = 90;
export const JOB_TIME_WINDOW_MS = HOUR;
/** How many of an event's latest deliveries its typical time is the median of. */
export const EVENT_SAMPLE = 20;
/** Never promise less than this: "about 0 s" reads as a bug while the job is still running. */
const MIN_ETA_SECONDS = 5;

export interface QueueDeps {
	db: Db;
	clock: Clock;
	slots: number;
}

/** Median seconds from photo to link: of the event's latest deliveries, else of the last hour's, else the default. */
export async function readTypicalJobSeconds(db: Db, clock: Clock, eventId: number | null = null): Promise<number> {
	const ofEvent = eventId === null ? [] : await readEventJobSeconds(db, eventId);
	if (ofEvent.length > 0) return Math.round(median(ofEvent));
	const since = new Date(clock.now().getTime() - JOB_TIME_WINDOW_MS).toISOString();
	const recent = await db.job.findMany({
		where: { status: 'done', linkSentAt: { gte: since } },
		select: { createdAt: true, linkSentAt: true }
	});
	const durations = photoToLinkSeconds(recent);
	return durations.length === 0 ? DEFAULT_JOB_SECONDS : Math.round(median(durations));
}

/** The event's latest EVENT_SAMPLE deliveries (a job's event is its snapshot's), in seconds, sorted. */
async function readEventJobSeconds(db: Db, eventId: number): Promise<number[]> {
	const ofEvent = await db.jobSnapshot.findMany({
		where: { eventId },
		select: { jobId: true },
		orderBy: { jobId: 'desc' },
		take: EVENT_SAMPLE * 5
	});
	if (ofEvent.length === 0) return [];
	const delivered = await db.job.findMany({
		where: { jobId: { in: ofEvent.map((s) => s.jobId) }, status: 'done', linkSentAt: { not: null } },
		select: { createdAt: true, linkSentAt: true },
		orderBy: { linkSentAt: 'desc' },
		take: EVENT_SAMPLE
	});
	return photoToLinkSeconds(delivered);
}

function photoToLinkSeconds(jobs: { createdAt: string; linkSentAt: string | null }[]): number[] {
	return jobs
		.map((job) => (Date.parse(job.linkSentAt ?? '') - Date.parse(job.createdAt)) / 1000)
		.filter((s) => Number.isFinite(s) && s > 0)
		.sort((a, b) => a - b);
}

function median(sorted: number[]): number {
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Where every active job stands, in one read (the status task refreshes them all each pass). */
export async function readActiveQueue(deps: QueueDeps): Promise<Map<number, QueueView>> {
	const active = await deps.db.job.findMany({
		where: { status: { in: [...ACTIVE_JOB_STATUSES] } },
		select: { jobId: true, status: true, createdAt: true },
		orderBy: [{ createdAt: 'asc' }, { jobId: 'asc' }]
	});
	const typicalOf = await typicalSecondsByJob(
		deps,
		active.map((job) => job.jobId)
	);
	const now = deps.clock.now().getTime();
	const views = new Map<number, QueueView>();
	let position = 0;
	for (const job of active) {
		const status = jobStatusSchema.parse(job.status);
		const typical = typicalOf(job.jobId);
		if (status === 'queued') {
			position += 1;
			const rounds = Math.ceil(position / Math.max(1, deps.slots));
			views.set(job.jobId, { position, etaSeconds: Math.max(MIN_ETA_SECONDS, Math.round(rounds * typical)), status });
		} else {
			const elapsed = Math.max(0, (now - Date.parse(job.createdAt)) / 1000);
			views.set(job.jobId, {
				position: 0,
				etaSeconds: Math.max(MIN_ETA_SECONDS, Math.round(typical - elapsed)),
				status
			});
		}
	}
	return views;
}

/** Each job's typical time, read once per event among them (jobs without a snapshot: the last hour's). */
async function typicalSecondsByJob(deps: QueueDeps, jobIds: number[]): Promise<(jobId: number) => number> {
	const snapshots =
		jobIds.length === 0
			? []
			: await deps.db.jobSnapshot.findMany({
					where: { jobId: { in: jobIds } },
					select: { jobId: true, eventId: true }
				});
	const eventOf = new Map(snapshots.map((s) => [s.jobId, s.eventId]));
	const typical = new Map<number | null, number>();
	for (const eventId of new Set([null, ...eventOf.values()]))
		typical.set(eventId, await readTypicalJobSeconds(deps.db, deps.clock, eventId));
	return (jobId) => typical.get(eventOf.get(jobId) ?? null)!;
}

export async function readQueuePosition(deps: QueueDeps, jobId: number): Promise<QueueView | null> {
	const job = await deps.db.job.findUnique({ where: { jobId }, select: { status: true } });
	if (!job) return null;
	const status: JobStatus = jobStatusSchema.parse(job.status);
	if (status === 'done' || status === 'failed') return { position: 0, etaSeconds: 0, status };
	return (await readActiveQueue(deps)).get(jobId) ?? null;
}

/** The same for the job a kiosk session produced (one session yields at most one job). */
export async function readSessionQueuePosition(deps: QueueDeps, sessionToken: string): Promise<QueueView | null> {
	const job = await deps.db.job.findFirst({
		where: { sessionToken },
		orderBy: { jobId: 'desc' },
		select: { jobId: true }
	});
	return job ? readQueuePosition(deps, job.jobId) : null;
}
