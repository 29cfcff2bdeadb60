import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/** How often a registered process writes its heartbeat. */
export const HEARTBEAT_EVERY_MS = 5_000;
/** A process that has not beaten for this long is reported as not alive (it beats every 5 s). */
export const WORKER_STALE_AFTER_SECONDS = 30;

/**
 * What a row of worker_processes is the launch of. Web processes register only on PostgreSQL:
 * there the database is all a restore can see of them, while on SQLite their DATA_DIR/web.lock
 * already tells it (and one more writer every 5 s would only contend for SQLite's write lock).
 */
export type ProcessKind = 'worker' | 'web';

/** The process registry (worker_processes): who runs, with how many slots, alive when. */
export interface WorkerIdentity {
	id: string;
	/** 'worker' when left out. */
	kind?: ProcessKind;
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
	const latest = await db.workerProcess.findFirst({
		where: { stoppedAt: null, kind: 'worker' },
		orderBy: { heartbeatAt: 'desc' },
		select: { heartbeatAt: true }
	});
	if (!latest) return null;
	return Math.max(0, Math.round((clock.now().getTime() - Date.parse(latest.heartbeatAt)) / 1000));
}

export interface LiveProcess {
	id: string;
	kind: ProcessKind;
	hostname: string;
	pid: number;
	heartbeatAt: string;
}

/** Worker launches alive now, oldest first: no recorded stop and a heartbeat within WORKER_STALE_AFTER_SECONDS. */
export function liveWorkers(db: Db, clock: Clock): Promise<LiveProcess[]> {
	return liveProcesses(db, clock, ['worker']);
}

/** Launches of the given kinds alive now, oldest first (as liveWorkers). */
export async function liveProcesses(
	db: Db,
	clock: Clock,
	kinds: readonly ProcessKind[] = ['worker', 'web']
): Promise<LiveProcess[]> {
	const freshSince = new Date(clock.now().getTime() - WORKER_STALE_AFTER_SECONDS * 1000).toISOString();
	const rows = await db.workerProcess.findMany({
		where: { stoppedAt: null, heartbeatAt: { gte: freshSince }, kind: { in: [...kinds] } },
		orderBy: { startedAt: 'asc' },
		select: { id: true, kind: true, hostname: true, pid: true, heartbeatAt: true }
	});
	return rows.map((row) => ({ ...row, kind: row.kind as ProcessKind }));
}

/** A launch as the console shows it (Live page, Health page). */
export interface ProcessView {
	id: string;
	hostname: string;
	pid: number;
	version: string;
	slots: number;
	busySlots: number;
	startedAt: string;
	heartbeatAt: string;
	/** No recorded stop and a heartbeat within WORKER_STALE_AFTER_SECONDS of `now`. */
	alive: boolean;
}

type ProcessRowFields = Omit<ProcessView, 'alive'> & { stoppedAt: string | null };

/** The worker_processes columns processView reads (a Prisma select). */
export const PROCESS_VIEW_FIELDS = {
	id: true,
	hostname: true,
	pid: true,
	version: true,
	slots: true,
	busySlots: true,
	startedAt: true,
	heartbeatAt: true,
	stoppedAt: true
} as const;

export function processView(row: ProcessRowFields, now: Date): ProcessView {
	const { stoppedAt, ...fields } = row;
	return { ...fields, alive: aliveAt({ stoppedAt, heartbeatAt: row.heartbeatAt }, now) };
}

/** The registry's rule: no recorded stop and a heartbeat within WORKER_STALE_AFTER_SECONDS of `now`. */
function aliveAt(row: { stoppedAt: string | null; heartbeatAt: string }, now: Date): boolean {
	return row.stoppedAt === null && now.getTime() - Date.parse(row.heartbeatAt) <= WORKER_STALE_AFTER_SECONDS * 1000;
}

/** An earlier launch on this host that is known gone: the pid of the stale instance lock a start took over. */
export interface GoneLaunch {
	hostname: string;
	pid: number;
}

/**
 * Which of `ids` are launches known dead: stopped, silent past WORKER_STALE_AFTER_SECONDS, or the
 * `gone` pid on its host (a start that took over its stale lock knows that process is gone). An id
 * with no row is not known dead, and neither is a live launch: only these may lose what they hold.
 */
export async function knownDeadLaunches(
	db: Db,
	clock: Clock,
	ids: readonly string[],
	gone: GoneLaunch | null = null
): Promise<string[]> {
	if (ids.length === 0) return [];
	const rows = await db.workerProcess.findMany({
		where: { id: { in: [...ids] } },
		select: { id: true, hostname: true, pid: true, heartbeatAt: true, stoppedAt: true }
	});
	const now = clock.now();
	return rows
		.filter((row) => !aliveAt(row, now) || (gone !== null && row.hostname === gone.hostname && row.pid === gone.pid))
		.map((row) => row.id);
}
