import type { Db } from '../db/client.ts';
import { HOUR, type Clock } from '../time/clock.ts';
import { ACTIVE_JOB_STATUSES, jobStatusSchema, type JobStatus } from '../../schemas/job-status.ts';
import type { QueueView } from '../../schemas/kiosk.ts';

/**
 * "You are #N, about M min" — the same numbers for the kiosk's "being drawn" screen and the
 * guest's status message in the bot. A queued job's place is its rank among the queued jobs in
 * claim order (created_at, then job_id: the order claimNextJob takes them); the estimate spreads
 * the median job time over the worker slots. The median is taken over the jobs delivered in the
 * last hour, photo (created_at) to link (link_sent_at), so it follows how the event runs today;
 * with none yet, DEFAULT_JOB_SECONDS stands in.
 */
export const DEFAULT_JOB_SECONDS = 90;
export const JOB_TIME_WINDOW_MS = HOUR;
/** Never promise less than this: "about 0 s" reads as a bug while the job is still running. */
const MIN_ETA_SECONDS = 5;

export interface QueueDeps {
	db: Db;
	clock: Clock;
	slots: number;
}

/** Median seconds from photo to link over the jobs delivered in the last hour. */
export async function readTypicalJobSeconds(db: Db, clock: Clock): Promise<number> {
	const since = new Date(clock.now().getTime() - JOB_TIME_WINDOW_MS).toISOString();
	const recent = await db.job.findMany({ where: { status: 'done', linkSentAt: { gte: since } }, select: { createdAt: true, linkSentAt: true } });
	const durations = recent
		.map((job) => (Date.parse(job.linkSentAt ?? '') - Date.parse(job.createdAt)) / 1000)
		.filter((s) => Number.isFinite(s) && s > 0)
		.sort((a, b) => a - b);
	return durations.length === 0 ? DEFAULT_JOB_SECONDS : Math.round(median(durations));
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
	const typical = await readTypicalJobSeconds(deps.db, deps.clock);
	const now = deps.clock.now().getTime();
	const views = new Map<number, QueueView>();
	let position = 0;
	for (const job of active) {
		const status = jobStatusSchema.parse(job.status);
		if (status === 'queued') {
			position += 1;
			const rounds = Math.ceil(position / Math.max(1, deps.slots));
			views.set(job.jobId, { position, etaSeconds: Math.max(MIN_ETA_SECONDS, Math.round(rounds * typical)), status });
		} else {
			const elapsed = Math.max(0, (now - Date.parse(job.createdAt)) / 1000);
			views.set(job.jobId, { position: 0, etaSeconds: Math.max(MIN_ETA_SECONDS, Math.round(typical - elapsed)), status });
		}
	}
	return views;
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
	const job = await deps.db.job.findFirst({ where: { sessionToken }, orderBy: { jobId: 'desc' }, select: { jobId: true } });
	return job ? readQueuePosition(deps, job.jobId) : null;
}
