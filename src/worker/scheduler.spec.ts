import { describe, expect, it } from 'vitest';
import { silentLogger } from '../lib/server/log/logger.ts';
import { nextTickDelay, PERIOD_TICK_OFFSET_MS, Scheduler } from './scheduler.ts';

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
		const task = {
			name: 'slow',
			everyMs: 1000,
			run: async () => {
				await new Promise((r) => setTimeout(r, 30));
				finished = true;
			}
		};
		void scheduler.runNow(task);
		await scheduler.stop();
		expect(finished).toBe(true);
	});

	describe('nextTickDelay', () => {
		const HOUR = 3_600_000;
		const at = (iso: string) => Date.parse(iso);

		it('ticks a fleet-wide task just after the next period starts, wherever in the period the worker is', () => {
			const sweep = { everyMs: HOUR, oncePerPeriod: true };
			expect(nextTickDelay(sweep, at('2026-03-01T10:00:00.100Z'), true)).toBe(HOUR);
			expect(nextTickDelay(sweep, at('2026-03-01T10:59:00.000Z'), true)).toBe(60_000 + PERIOD_TICK_OFFSET_MS);
			expect(nextTickDelay(sweep, at('2026-03-01T10:20:00.000Z'), true)).toBe(40 * 60_000 + PERIOD_TICK_OFFSET_MS);
		});

		it('a timer that fires a little early ticks again within the same period start, never skipping one', () => {
			const sweep = { everyMs: HOUR, oncePerPeriod: true };
			expect(nextTickDelay(sweep, at('2026-03-01T11:00:00.099Z'), true)).toBe(1);
		});

		it('keeps short periods aligned with a proportionally small offset', () => {
			expect(nextTickDelay({ everyMs: 500, oncePerPeriod: true }, at('2026-03-01T10:00:00.700Z'), true)).toBe(350);
		});

		it('other tasks, and every task of a worker on its own, keep their plain interval', () => {
			expect(nextTickDelay({ everyMs: 5_000 }, at('2026-03-01T10:00:03.000Z'), true)).toBe(5_000);
			expect(nextTickDelay({ everyMs: 5_000, oncePerPeriod: true }, at('2026-03-01T10:00:03.000Z'), false)).toBe(5_000);
		});
	});
});
