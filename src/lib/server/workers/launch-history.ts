import type { Db } from '../db/client.ts';
import { WORKER_STALE_AFTER_SECONDS, type ProcessKind } from './worker-registry.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The launch history for the console: every worker start is a `worker_processes` row, and on
 * PostgreSQL every web process start too (kind 'web'). A
 * launch that recorded `stopped_at` ended cleanly (SIGTERM/SIGINT went through the stop path);
 * one whose heartbeat went quiet without it crashed, was killed or lost its machine.
 */
export type LaunchState = 'running' | 'stopped' | 'silent';

export interface WorkerLaunch {
	id: string;
	kind: ProcessKind;
	hostname: string;
	pid: number;
	version: string;
	slots: number;
	startedAt: string;
	heartbeatAt: string;
	stoppedAt: string | null;
	state: LaunchState;
	/** How it ended: null while it runs. */
	ending: 'clean stop' | 'no stop recorded' | null;
	/** Until the stop, the last heartbeat of a silent launch, or now. */
	uptimeSeconds: number;
	warnings: number;
	errors: number;
}

type LaunchRow = Pick<
	WorkerLaunch,
	'hostname' | 'pid' | 'version' | 'slots' | 'startedAt' | 'heartbeatAt' | 'stoppedAt'
> & { id: string; kind: string };

export function describeLaunch(row: LaunchRow, now: Date): Omit<WorkerLaunch, 'warnings' | 'errors'> {
	const silent =
		row.stoppedAt === null && now.getTime() - Date.parse(row.heartbeatAt) > WORKER_STALE_AFTER_SECONDS * 1000;
	const state: LaunchState = row.stoppedAt !== null ? 'stopped' : silent ? 'silent' : 'running';
	const endMs =
		row.stoppedAt !== null ? Date.parse(row.stoppedAt) : silent ? Date.parse(row.heartbeatAt) : now.getTime();
	return {
		id: row.id,
		kind: row.kind as ProcessKind,
		hostname: row.hostname,
		pid: row.pid,
		version: row.version,
		slots: row.slots,
		startedAt: row.startedAt,
		heartbeatAt: row.heartbeatAt,
		stoppedAt: row.stoppedAt,
		state,
		ending: state === 'stopped' ? 'clean stop' : state === 'silent' ? 'no stop recorded' : null,
		uptimeSeconds: Math.max(0, Math.round((endMs - Date.parse(row.startedAt)) / 1000))
	};
}

/** The newest launches with how many warnings and errors each left in `log_entries`. */
export async function listWorkerLaunches(db: Db, clock: Clock, limit = 20): Promise<WorkerLaunch[]> {
	const rows = await db.workerProcess.findMany({ orderBy: { startedAt: 'desc' }, take: limit });
	const counts = await db.logEntry.groupBy({
		by: ['workerId', 'level'],
		where: { workerId: { in: rows.map((row) => row.id) } },
		_count: { _all: true }
	});
	const count = (id: string, levels: string[]) =>
		counts.filter((c) => c.workerId === id && levels.includes(c.level)).reduce((sum, c) => sum + c._count._all, 0);
	const now = clock.now();
	return rows.map((row) => ({
		...describeLaunch(row, now),
		warnings: count(row.id, ['warn']),
		errors: count(row.id, ['error', 'fatal'])
	}));
}
