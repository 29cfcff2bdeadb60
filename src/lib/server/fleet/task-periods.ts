import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';

/**
 * Fleet-wide scheduled tasks run once per period however many workers there are: each period of a
 * task is a row of `scheduled_task_runs`, and only the worker whose INSERT made the row runs it.
 * The primary key (task, period_start) decides the race atomically on both engines; no lock is held
 * while the task runs. A worker that dies mid-run leaves its period claimed: the task's next period
 * runs it again, and every such task is a catch-up sweep that does what the missed run left.
 */
export interface TaskPeriod {
	task: string;
	periodStart: string;
}

/**
 * Rows older than this are removed: the longest period is an hour, and a day of rows (a few per
 * second at most) is enough to see which worker ran what.
 */
export const TASK_RUNS_KEPT_MS = DAY;

/** The start of the period of length `periodMs` that `now` falls in (periods start at the epoch). */
export function periodStartOf(now: Date, periodMs: number): string {
	return new Date(Math.floor(now.getTime() / periodMs) * periodMs).toISOString();
}

/** The current period of `task` for `workerId`, or null when another worker already has it. */
export async function claimTaskPeriod(
	db: Db,
	clock: Clock,
	task: string,
	periodMs: number,
	workerId: string
): Promise<TaskPeriod | null> {
	const now = clock.now();
	const periodStart = periodStartOf(now, periodMs);
	const inserted = await db.$executeRaw`
		INSERT INTO scheduled_task_runs (task, period_start, claimed_by, claimed_at)
		VALUES (${task}, ${periodStart}, ${workerId}, ${now.toISOString()})
		ON CONFLICT (task, period_start) DO NOTHING`;
	return inserted === 1 ? { task, periodStart } : null;
}

export async function finishTaskPeriod(db: Db, clock: Clock, period: TaskPeriod, workerId: string): Promise<void> {
	await db.scheduledTaskRun.updateMany({
		where: { task: period.task, periodStart: period.periodStart, claimedBy: workerId },
		data: { finishedAt: clock.now().toISOString() }
	});
}

export async function pruneTaskRuns(db: Db, clock: Clock): Promise<number> {
	const before = new Date(clock.now().getTime() - TASK_RUNS_KEPT_MS).toISOString();
	const { count } = await db.scheduledTaskRun.deleteMany({ where: { claimedAt: { lt: before } } });
	return count;
}

/** What the worker's Scheduler asks before a fleet-wide task runs. */
export interface PeriodClaims {
	/** The period's claim with a way to mark it done, or null when another worker runs it. */
	claim(task: string, periodMs: number): Promise<{ periodStart: string; finished(): Promise<void> } | null>;
}

export function taskPeriodClaims(db: Db, clock: Clock, workerId: string): PeriodClaims {
	return {
		async claim(task, periodMs) {
			const period = await claimTaskPeriod(db, clock, task, periodMs, workerId);
			return (
				period && { periodStart: period.periodStart, finished: () => finishTaskPeriod(db, clock, period, workerId) }
			);
		}
	};
}
