import type { PeriodClaims } from '../lib/server/fleet/task-periods.ts';
import type { Logger } from '../lib/server/log/logger.ts';

/**
 * Periodic tasks of the worker (heartbeat, outboxes, sweeps, backups). Each task runs alone —
 * never overlapping itself — and an error is logged and retried at the next tick, never stopping
 * the loop. `stop()` waits for running tasks, so shutdown never cuts one in half.
 *
 * Every worker of a fleet runs the same schedule. A task marked `oncePerPeriod` (a sweep, the
 * retention, a digest, a backup) runs only in the worker that claims its current period of
 * `everyMs`; the others skip that tick. Its run at a worker's start goes ahead even in a period
 * already claimed: a restart is how a changed setting (a shorter TTL, other models) takes effect,
 * and it must not wait for the next period. Unmarked tasks run in every worker: the heartbeat is each
 * worker's own, and the outboxes and queues claim their rows with SKIP LOCKED and leases, so
 * several workers share their work without doing any of it twice.
 */
export interface ScheduledTask {
	name: string;
	everyMs: number;
	run(): Promise<void>;
	/** Run once right at start instead of waiting a full interval (for a fleet-wide task: whatever the period's claim). */
	runAtStart?: boolean;
	/** Once per period of `everyMs` across all workers, not in each one. */
	oncePerPeriod?: boolean;
	/**
	 * A fleet-wide task whose run at start also needs its period's claim: a worker starting in a
	 * period another worker has claimed skips it (the backup: two workers starting together must not
	 * both take a dump). Without it the run at start goes ahead whatever the claim.
	 */
	startNeedsClaim?: boolean;
}

/**
 * A fleet-wide task's ticks are set just after each period starts (this much after), in every
 * worker alike: then a period goes unrun only when no worker is alive in it. A plain interval from
 * each worker's own start drifts by the run's duration, and a period whose ticks all fall outside it
 * would be skipped by every worker.
 */
export const PERIOD_TICK_OFFSET_MS = 100;

/** Milliseconds until a task's next tick: the next period's start for a fleet-wide task, else its interval. */
export function nextTickDelay(
	task: Pick<ScheduledTask, 'everyMs' | 'oncePerPeriod'>,
	nowMs: number,
	fleetWide: boolean
): number {
	if (!task.oncePerPeriod || !fleetWide) return task.everyMs;
	const offset = Math.min(PERIOD_TICK_OFFSET_MS, task.everyMs / 10);
	const nextPeriod = (Math.floor((nowMs - offset) / task.everyMs) + 1) * task.everyMs;
	return nextPeriod + offset - nowMs;
}

export class Scheduler {
	readonly #logger: Logger;
	readonly #timers = new Map<string, NodeJS.Timeout>();
	readonly #running = new Map<string, Promise<void>>();
	readonly #claims: PeriodClaims | undefined;
	#stopped = false;

	readonly #now: () => number;

	/** Without `claims` (one process on its own) a fleet-wide task runs at each of its ticks. */
	constructor(logger: Logger, claims?: PeriodClaims, now: () => number = Date.now) {
		this.#logger = logger;
		this.#claims = claims;
		this.#now = now;
	}

	add(task: ScheduledTask): void {
		if (this.#stopped) throw new Error('scheduler is stopped');
		if (task.runAtStart) this.#plan(task, 0, { atStart: true });
		else this.#plan(task, this.#nextDelay(task));
	}

	/**
	 * Runs a task now (unless it is already running) and returns when it finishes. `atStart` is the
	 * worker's first run of it, which a fleet-wide task makes whether or not its period is claimed.
	 */
	async runNow(task: ScheduledTask, { atStart = false } = {}): Promise<void> {
		const current = this.#running.get(task.name);
		if (current) return current;
		const run = this.#runClaimed(task, atStart)
			.catch((error: unknown) =>
				this.#logger.error({ err: error, task: task.name }, 'scheduled task failed; will retry next time')
			)
			.finally(() => this.#running.delete(task.name));
		this.#running.set(task.name, run);
		return run;
	}

	async #runClaimed(task: ScheduledTask, atStart: boolean): Promise<void> {
		if (!task.oncePerPeriod || !this.#claims) return task.run();
		// Claimed at start too, so the other workers skip this period's run.
		const claim = await this.#claims.claim(task.name, task.everyMs);
		if (!claim && (!atStart || task.startNeedsClaim)) return;
		// Which worker ran which period: the fleet test and an operator reading logs both need it.
		const period = claim?.periodStart ?? null;
		this.#logger.debug({ task: task.name, period, atStart }, 'fleet task run');
		const startedAt = this.#now();
		await task.run();
		await claim?.finished();
		this.#logger.debug({ task: task.name, period, ms: this.#now() - startedAt }, 'fleet task done');
	}

	async stop(): Promise<void> {
		this.#stopped = true;
		for (const timer of this.#timers.values()) clearTimeout(timer);
		this.#timers.clear();
		await Promise.all(this.#running.values());
	}

	#nextDelay(task: ScheduledTask): number {
		return nextTickDelay(task, this.#now(), this.#claims !== undefined);
	}

	#plan(task: ScheduledTask, delayMs: number, options: { atStart?: boolean } = {}): void {
		const timer = setTimeout(async () => {
			await this.runNow(task, options);
			if (!this.#stopped) this.#plan(task, this.#nextDelay(task));
		}, delayMs);
		timer.unref();
		this.#timers.set(task.name, timer);
	}
}
