import type { Logger } from '../lib/server/log/logger.ts';

/**
 * Periodic tasks of the worker (heartbeat, outboxes, sweeps, backups). Each task runs alone —
 * never overlapping itself — and an error is logged and retried at the next tick, never stopping
 * the loop. `stop()` waits for running tasks, so shutdown never cuts one in half.
 */
export interface ScheduledTask {
	name: string;
	everyMs: number;
	run(): Promise<void>;
	/** Run once right at start instead of waiting a full interval. */
	runAtStart?: boolean;
}

export class Scheduler {
	readonly #logger: Logger;
	readonly #timers = new Map<string, NodeJS.Timeout>();
	readonly #running = new Map<string, Promise<void>>();
	#stopped = false;

	constructor(logger: Logger) {
		this.#logger = logger;
	}

	add(task: ScheduledTask): void {
		if (this.#stopped) throw new Error('scheduler is stopped');
		this.#plan(task, task.runAtStart ? 0 : task.everyMs);
	}

	/** Runs a task now (unless it is already running) and returns when it finishes. */
	async runNow(task: ScheduledTask): Promise<void> {
		const current = this.#running.get(task.name);
		if (current) return current;
		const run = task
			.run()
			.catch((error: unknown) => this.#logger.error({ err: error, task: task.name }, 'scheduled task failed; will retry next time'))
			.finally(() => this.#running.delete(task.name));
		this.#running.set(task.name, run);
		return run;
	}

	async stop(): Promise<void> {
		this.#stopped = true;
		for (const timer of this.#timers.values()) clearTimeout(timer);
		this.#timers.clear();
		await Promise.all(this.#running.values());
	}

	#plan(task: ScheduledTask, delayMs: number): void {
		const timer = setTimeout(async () => {
			await this.runNow(task);
			if (!this.#stopped) this.#plan(task, task.everyMs);
		}, delayMs);
		timer.unref();
		this.#timers.set(task.name, timer);
	}
}
