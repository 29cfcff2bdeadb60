import type { Db } from '../db/client.ts';
import {
	ACTIVE_JOB_STATUSES,
	FINISHED_JOB_STATUSES,
	JOB_STATUSES,
	jobStatusSchema,
	type JobStatus
} from '../../schemas/job-status.ts';
import { OPEN_STATUSES, type OpenStatus } from '../../schemas/kiosk.ts';
import { PROCESS_VIEW_FIELDS, processView, type ProcessView } from '../workers/worker-registry.ts';
import { readQueuePause, type QueuePause } from '../jobs/queue-pause.ts';
import { listQueuePauses, pausedMsBetween } from '../jobs/queue-pauses.repository.ts';
import { readMaintenance, type Maintenance } from '../settings/maintenance.ts';
import { pacificDayStart } from '../spend/provider-quota-day.ts';
import { HOUR, type Clock } from '../time/clock.ts';
import { startOfDayIn } from '../time/zoned-day.ts';
import { guestLabel } from './guest-label.ts';
import { readProvidersView, type ProvidersView } from './provider-health.ts';
import { readAll } from './read-all.ts';
import type { FailureNotice } from '../../components/console/job/job-words.ts';

/** The Live page: what an operator glances at during an event. */
const RECENT_FINISHED = 15;
const PACKS_PER_HOUR_WINDOW = 12;

export interface LiveJob {
	jobId: number;
	status: JobStatus;
	guest: string;
	telegramUserId: string;
	createdAt: string;
	updatedAt: string;
	attempts: number;
	/** Kept for the failure's cause (job-words.ts reads it); the page shows words, not this. */
	error: string | null;
	/** A failed job's failure or deadline notice (what it told the guest); empty for the others. */
	notices: FailureNotice[];
	/** Active jobs: when the hard deadline falls, the pauses so far added to it (they hold the deadline). */
	deadlineAt?: string;
}

export interface LiveSnapshot {
	at: string;
	deadlineMinutes: number;
	maintenance: Maintenance | null;
	/** Whatever holds the queue (maintenance or the provider's day quota), with its source and expected end. */
	queuePause: QueuePause | null;
	jobCounts: Record<JobStatus, number>;
	activeJobs: LiveJob[];
	recentJobs: LiveJob[];
	workers: ProcessView[];
	openSessions: { status: OpenStatus; count: number }[];
	today: {
		packs: number;
		spendUsd: number;
		imageRequests: number;
		quotaDayStart: string;
		quota: number | null;
		warnAt: number | null;
	};
	packsPerHour: { hour: string; count: number }[];
	/** Provider health (last success and failure, errors in 15 min) and the queue's pause. */
	health: ProvidersView;
}

export interface LiveSettings {
	deadlineMinutes: number;
	imageQuotaPerDay: number | null;
	imageWarnAt: number | null;
}

export async function readLiveSnapshot(db: Db, clock: Clock, settings: LiveSettings): Promise<LiveSnapshot> {
	const now = clock.now();
	const parts = await readAll({
		maintenance: readMaintenance(db),
		queuePause: readQueuePause(db, clock),
		jobCounts: countJobsByStatus(db),
		activeJobs: readJobs(db, ACTIVE_JOB_STATUSES, 'asc', 200),
		recentJobs: readJobs(db, FINISHED_JOB_STATUSES, 'desc', RECENT_FINISHED),
		workers: readWorkers(db, now),
		openSessions: countOpenSessions(db),
		today: readToday(db, now, settings),
		packsPerHour: countPacksPerHour(db, now),
		health: readProvidersView(db, clock)
	});
	await addDeadlines(db, now, settings.deadlineMinutes, parts.activeJobs);
	return { at: now.toISOString(), deadlineMinutes: settings.deadlineMinutes, ...parts };
}

async function countJobsByStatus(db: Db): Promise<Record<JobStatus, number>> {
	const groups = await db.job.groupBy({ by: ['status'], _count: { _all: true } });
	const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
	for (const group of groups) counts[jobStatusSchema.parse(group.status)] = group._count._all;
	return counts;
}

async function readJobs(
	db: Db,
	statuses: readonly JobStatus[],
	order: 'asc' | 'desc',
	take: number
): Promise<LiveJob[]> {
	const jobs = await db.job.findMany({
		where: { status: { in: [...statuses] } },
		orderBy: order === 'asc' ? { createdAt: 'asc' } : { updatedAt: 'desc' },
		take
	});
	const users = await db.user.findMany({ where: { telegramUserId: { in: jobs.map((j) => j.telegramUserId) } } });
	const byId = new Map(users.map((u) => [u.telegramUserId, u]));
	const notices = await readFailureNotices(
		db,
		jobs.filter((j) => j.status === 'failed').map((j) => j.jobId)
	);
	return jobs.map((job) => ({
		jobId: job.jobId,
		status: jobStatusSchema.parse(job.status),
		guest: guestLabel(byId.get(job.telegramUserId), job.telegramUserId),
		telegramUserId: job.telegramUserId.toString(),
		createdAt: job.createdAt,
		updatedAt: job.updatedAt,
		attempts: job.attempts,
		error: job.error,
		notices: notices.get(job.jobId) ?? []
	}));
}

/** The failure and deadline notices of failed jobs: why each failed and whether the guest heard. */
async function readFailureNotices(db: Db, jobIds: number[]): Promise<Map<number, FailureNotice[]>> {
	if (jobIds.length === 0) return new Map();
	const rows = await db.guestNotice.findMany({
		where: { jobId: { in: jobIds }, kind: { in: ['failure', 'deadline'] } },
		orderBy: { id: 'asc' },
		select: { jobId: true, kind: true, textKey: true, state: true }
	});
	const byJob = new Map<number, FailureNotice[]>();
	for (const { jobId, ...notice } of rows) {
		byJob.set(jobId, [...(byJob.get(jobId) ?? []), notice]);
	}
	return byJob;
}

async function addDeadlines(db: Db, now: Date, deadlineMinutes: number, jobs: LiveJob[]): Promise<void> {
	const oldest = jobs[0];
	if (!oldest) return;
	const pauses = await listQueuePauses(db, new Date(oldest.createdAt));
	for (const job of jobs) {
		const created = new Date(job.createdAt);
		job.deadlineAt = new Date(
			created.getTime() + deadlineMinutes * 60_000 + pausedMsBetween(pauses, created, now)
		).toISOString();
	}
}

async function readWorkers(db: Db, now: Date): Promise<ProcessView[]> {
	const rows = await db.workerProcess.findMany({
		where: { stoppedAt: null, kind: 'worker' },
		orderBy: { heartbeatAt: 'desc' },
		take: 10,
		select: PROCESS_VIEW_FIELDS
	});
	return rows.map((row) => processView(row, now));
}

async function countOpenSessions(db: Db): Promise<LiveSnapshot['openSessions']> {
	const groups = await db.session.groupBy({
		by: ['status'],
		where: { status: { in: [...OPEN_STATUSES] } },
		_count: { _all: true }
	});
	return OPEN_STATUSES.map((status) => ({ status, count: groups.find((g) => g.status === status)?._count._all ?? 0 }));
}

async function readToday(db: Db, now: Date, settings: LiveSettings): Promise<LiveSnapshot['today']> {
	const utcStart = startOfDayIn(now, 'UTC').toISOString();
	const quotaDayStart = pacificDayStart(now).toISOString();
	const [packs, spend, imageRequests] = await Promise.all([
		db.job.count({ where: { status: 'done', linkSentAt: { gte: utcStart } } }),
		db.apiUsage.aggregate({ where: { ts: { gte: utcStart } }, _sum: { estCostUsd: true } }),
		db.apiUsage.count({ where: { kind: 'image', ts: { gte: quotaDayStart } } })
	]);
	return {
		packs,
		spendUsd: spend._sum.estCostUsd ?? 0,
		imageRequests,
		quotaDayStart,
		quota: settings.imageQuotaPerDay,
		warnAt: settings.imageWarnAt
	};
}

async function countPacksPerHour(db: Db, now: Date): Promise<{ hour: string; count: number }[]> {
	const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
	const from = new Date(currentHour - (PACKS_PER_HOUR_WINDOW - 1) * HOUR).toISOString();
	const rows = await db.job.findMany({
		where: { status: 'done', linkSentAt: { gte: from } },
		select: { linkSentAt: true }
	});
	const hours = Array.from(
		{ length: PACKS_PER_HOUR_WINDOW },
		(_, i) => currentHour - (PACKS_PER_HOUR_WINDOW - 1 - i) * HOUR
	);
	return hours.map((start) => ({
		hour: new Date(start).toISOString(),
		count: rows.filter(
			(r) => r.linkSentAt && Date.parse(r.linkSentAt) >= start && Date.parse(r.linkSentAt) < start + HOUR
		).length
	}));
}
