import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/** A worker that has not beaten for this long is reported as not alive (it beats every 5 s). */
export const WORKER_STALE_AFTER_SECONDS = 30;

/** The worker process registry (worker_processes): who runs, with how many slots, alive when. */
export interface WorkerIdentity {
	id: string;
	pid: number;
	hostname: string;
	version: string;
	slots: number;
}

export async function registerWorker(db: Db, clock: Clock, worker: WorkerIdentity): Promise<void> {
	const now = clock.now().toISOString();
	await db.workerProcess.create({ data: { ...worker, busySlots: 0, startedAt: now, heartbeatAt: now } });
}

export async function recordHeartbeat(db: Db, clock: Clock, id: string, busySlots: number): Promise<void> {
	await db.workerProcess.update({ where: { id }, data: { heartbeatAt: clock.now().toISOString(), busySlots } });
}

export async function markWorkerStopped(db: Db, clock: Clock, id: string): Promise<void> {
	const now = clock.now().toISOString();
	await db.workerProcess.update({ where: { id }, data: { stoppedAt: now, heartbeatAt: now, busySlots: 0 } });
}

/** Seconds since the newest heartbeat of a running worker, or null when none has ever beaten. */
export async function lastHeartbeatAgeSeconds(db: Db, clock: Clock): Promise<number | null> {
	const latest = await db.workerProcess.findFirst({ where: { stoppedAt: null }, orderBy: { heartbeatAt: 'desc' }, select: { heartbeatAt: true } });
	if (!latest) return null;
	return Math.max(0, Math.round((clock.now().getTime() - Date.parse(latest.heartbeatAt)) / 1000));
}

export interface LiveWorker {
	id: string;
	hostname: string;
	pid: number;
	heartbeatAt: string;
}

/** Launches alive now, oldest first: no recorded stop and a heartbeat within WORKER_STALE_AFTER_SECONDS. */
export async function liveWorkers(db: Db, clock: Clock): Promise<LiveWorker[]> {
	const freshSince = new Date(clock.now().getTime() - WORKER_STALE_AFTER_SECONDS * 1000).toISOString();
	return db.workerProcess.findMany({
		where: { stoppedAt: null, heartbeatAt: { gte: freshSince } },
		orderBy: { startedAt: 'asc' },
		select: { id: true, hostname: true, pid: true, heartbeatAt: true }
	});
}
