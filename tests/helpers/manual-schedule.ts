import type { Schedule } from '../../src/lib/server/media/upload-checker/child-checker.ts';

/**
 * A Schedule whose timers run only when the test fires them, by their duration: the checker's
 * idle and timeout rules are tested without waiting for them.
 */
export class ManualSchedule {
	#tasks: { ms: number; run: () => void; done: boolean }[] = [];

	readonly schedule: Schedule = (ms, run) => {
		const task = { ms, run, done: false };
		this.#tasks.push(task);
		return () => void (task.done = true);
	};

	/** How many timers of this duration were ever set. */
	created(ms: number): number {
		return this.#tasks.filter((task) => task.ms === ms).length;
	}

	/** How many timers of this duration are waiting. */
	pending(ms: number): number {
		return this.#tasks.filter((task) => task.ms === ms && !task.done).length;
	}

	/** Runs every waiting timer of this duration; returns how many ran. */
	fire(ms: number): number {
		const due = this.#tasks.filter((task) => task.ms === ms && !task.done);
		for (const task of due) {
			task.done = true;
			task.run();
		}
		return due.length;
	}
}
