import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { jobStatusSchema } from '../../schemas/job-status.ts';
import type { QueueView } from '../../schemas/kiosk.ts';

/**
 * "You are #N, about M s" for the kiosk and the bot. A job's place is the
 * number of queued jobs claimed before it (claims take the oldest job_id first) plus one; the
 * estimate uses how long recent done jobs took from created_at to done, spread over the worker
 * slots. With no history yet a sensible default stands in.
 */
export const DEFAULT_JOB_SECONDS = 90;
const HISTORY = 20;

export interface QueueDeps {
	db: Db;
	clock: Clock;
	slots: number;
}

/** Median seconds from created_at to done over the last done jobs (their wait included). */
export async function readTypicalJobSeconds(db: Db): Promise<number> {
	const recent = await db.job.findMany({ where: { status: 'done' }, orderBy: { jobId: 'desc' }, take: HISTORY, select: { createdAt: true, updatedAt: true } });
	const durations = recent
		.map((job) => (new Date(job.updatedAt).getTime() - new Date(job.createdAt).getTime()) / 1000)
		.filter((s) => Number.isFinite(s) && s > 0)
		.sort((a, b) => a - b);
	if (durations.length === 0) return DEFAULT_JOB_SECONDS;
	return Math.round(durations[Math.floor(durations.length / 2)]!);
}

export async function readQueuePosition(deps: QueueDeps, jobId: number): Promise<QueueView | null> {
	const job = await deps.db.job.findUnique({ where: { jobId }, select: { status: true, createdAt: true } });
	if (!job) return null;
	const status = jobStatusSchema.parse(job.status);
	const typical = await readTypicalJobSeconds(deps.db);
	if (status === 'done' || status === 'failed') return { position: 0, etaSeconds: 0, status };
	const elapsed = Math.max(0, (deps.clock.now().getTime() - new Date(job.createdAt).getTime()) / 1000);
	if (status !== 'queued') return { position: 0, etaSeconds: Math.max(5, Math.round(typical - elapsed)), status };
	const ahead = await deps.db.job.count({ where: { status: 'queued', jobId: { lt: jobId } } });
	const position = ahead + 1;
	const rounds = Math.ceil(position / Math.max(1, deps.slots));
	return { position, etaSeconds: Math.max(5, Math.round(rounds * typical)), status };
}

/** The same for the job a kiosk session produced (one session yields at most one job). */
export async function readSessionQueuePosition(deps: QueueDeps, sessionToken: string): Promise<QueueView | null> {
	const job = await deps.db.job.findFirst({ where: { sessionToken }, orderBy: { jobId: 'desc' }, select: { jobId: true } });
	return job ? readQueuePosition(deps, job.jobId) : null;
}
