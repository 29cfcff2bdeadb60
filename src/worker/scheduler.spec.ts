import { describe, expect, it } from 'vitest';
import { silentLogger } from '../lib/server/log/logger.ts';
import { Scheduler } from './scheduler.ts';

describe('Scheduler', () => {
	it('never runs a task twice at once and keeps going after an error', async () => {
		const scheduler = new Scheduler(silentLogger);
		let running = 0;
		let maxRunning = 0;
		let runs = 0;
		const task = {
			name: 'flaky',
			everyMs: 5,
			runAtStart: true,
			run: async () => {
				running++;
				maxRunning = Math.max(maxRunning, running);
				runs++;
				await new Promise((r) => setTimeout(r, 15));
				running--;
				if (runs % 2 === 1) throw new Error('transient');
			}
		};
		scheduler.add(task);
		await Promise.all([scheduler.runNow(task), scheduler.runNow(task)]);
		await new Promise((r) => setTimeout(r, 120));
		await scheduler.stop();
		expect(maxRunning).toBe(1);
		expect(runs).toBeGreaterThanOrEqual(3);
		const after = runs;
		await new Promise((r) => setTimeout(r, 40));
		expect(runs).toBe(after);
	});

	it('stop() waits for a running task to finish', async () => {
		const scheduler = new Scheduler(silentLogger);
		let finished = false;
		const task = { name: 'slow', everyMs: 1000, run: async () => { await new Promise((r) => setTimeout(r, 30)); finished = true; } };
		void scheduler.runNow(task);
		await scheduler.stop();
		expect(finished).toBe(true);
	});
});
