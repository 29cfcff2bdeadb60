import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/lib/server/db/client.ts';
import { claimTaskPeriod, pruneTaskRuns, taskPeriodClaims } from '../../src/lib/server/fleet/task-periods.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, HOUR, MINUTE } from '../../src/lib/server/time/clock.ts';
import { Scheduler } from '../../src/worker/scheduler.ts';
import { testsRunOnPostgres } from '../helpers/pg-test-db.ts';
import { useTestDb } from '../helpers/test-db.ts';

describe('scheduled tasks once per period across workers', () => {
	const testDb = useTestDb('fleet-periods-');

	it('two workers racing for the same period: exactly one wins; the next period is open again', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:15:00.000Z');
		const first = await Promise.all([
			claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-a'),
			claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-b')
		]);
		expect(first.filter((claim) => claim !== null)).toEqual([
			{ task: 'retention', periodStart: '2026-03-01T10:00:00.000Z' }
		]);

		// Later in the same hour nobody gets it, not even the winner; another task's period is its own.
		clock.advance(40 * MINUTE);
		expect(await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-a')).toBeNull();
		expect(await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-b')).toBeNull();
		expect(await claimTaskPeriod(db, clock, 'ttl-sweep', HOUR, 'worker-b')).toEqual({
			task: 'ttl-sweep',
			periodStart: '2026-03-01T10:00:00.000Z'
		});

		clock.advance(10 * MINUTE);
		expect(await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-b')).toEqual({
			task: 'retention',
			periodStart: '2026-03-01T11:00:00.000Z'
		});
		expect(await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-a')).toBeNull();
	});

	it('two schedulers on their own clients run a fleet-wide task once per period and a per-process task in each', async () => {
		const { db, dbPath } = await testDb();
		// A second client on the same file stands for a second worker process (on PostgreSQL the test database's own client).
		const other = testsRunOnPostgres() ? db : openDatabase(dbPath);
		const clock = new FakeClock('2026-03-01T10:59:59.000Z');
		const runs: string[] = [];
		const workers = [
			{ id: 'worker-a', scheduler: new Scheduler(silentLogger, taskPeriodClaims(db, clock, 'worker-a')) },
			{ id: 'worker-b', scheduler: new Scheduler(silentLogger, taskPeriodClaims(other, clock, 'worker-b')) }
		];
		const tasksOf = (id: string) => ({
			sweep: {
				name: 'ttl-sweep',
				everyMs: HOUR,
				oncePerPeriod: true,
				run: async () => void runs.push(`sweep by ${id}`)
			},
			heartbeat: { name: 'heartbeat', everyMs: HOUR, run: async () => void runs.push(`heartbeat of ${id}`) }
		});
		const tick = () =>
			Promise.all(
				workers.flatMap(({ id, scheduler }) => [
					scheduler.runNow(tasksOf(id).sweep),
					scheduler.runNow(tasksOf(id).heartbeat)
				])
			);

		await tick();
		await tick();
		expect(runs.filter((run) => run.startsWith('sweep'))).toHaveLength(1);
		expect(runs.filter((run) => run.startsWith('heartbeat')).sort()).toEqual([
			'heartbeat of worker-a',
			'heartbeat of worker-a',
			'heartbeat of worker-b',
			'heartbeat of worker-b'
		]);

		clock.advance(1000);
		runs.length = 0;
		await tick();
		expect(runs.filter((run) => run.startsWith('sweep'))).toHaveLength(1);

		const rows = await db.scheduledTaskRun.findMany({ where: { task: 'ttl-sweep' }, orderBy: { periodStart: 'asc' } });
		expect(rows.map((row) => [row.periodStart, row.finishedAt])).toEqual([
			['2026-03-01T10:00:00.000Z', '2026-03-01T10:59:59.000Z'],
			['2026-03-01T11:00:00.000Z', '2026-03-01T11:00:00.000Z']
		]);
		expect(rows.every((row) => row.claimedBy === 'worker-a' || row.claimedBy === 'worker-b')).toBe(true);
		if (other !== db) await other.$disconnect();
	});

	it('a run that failed leaves its period claimed and unfinished; the next period runs again', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const scheduler = new Scheduler(silentLogger, taskPeriodClaims(db, clock, 'worker-a'));
		let calls = 0;
		const task = {
			name: 'backup',
			everyMs: HOUR,
			oncePerPeriod: true,
			run: async () => {
				calls++;
				if (calls === 1) throw new Error('disk full');
			}
		};
		await scheduler.runNow(task);
		await scheduler.runNow(task);
		expect(calls).toBe(1);
		clock.advance(HOUR);
		await scheduler.runNow(task);
		expect(calls).toBe(2);
		const rows = await db.scheduledTaskRun.findMany({ orderBy: { periodStart: 'asc' } });
		expect(rows.map((row) => row.finishedAt)).toEqual([null, '2026-03-01T11:00:00.000Z']);
	});

	it("a worker's run at start goes ahead in a period another worker claimed; its later ticks there skip", async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:05:00.000Z');
		const runs: string[] = [];
		const sweepOf = (id: string) => ({
			name: 'ttl-sweep',
			everyMs: HOUR,
			runAtStart: true,
			oncePerPeriod: true,
			run: async () => void runs.push(id)
		});
		const a = new Scheduler(silentLogger, taskPeriodClaims(db, clock, 'worker-a'));
		const b = new Scheduler(silentLogger, taskPeriodClaims(db, clock, 'worker-b'));
		await a.runNow(sweepOf('worker-a'), { atStart: true });
		// b restarts later in the hour (a shorter TTL set, say): its first pass must not wait for the next hour.
		clock.advance(20 * MINUTE);
		await b.runNow(sweepOf('worker-b'), { atStart: true });
		await b.runNow(sweepOf('worker-b'));
		await a.runNow(sweepOf('worker-a'));
		expect(runs).toEqual(['worker-a', 'worker-b']);
		// A start in a free period claims it, so the other worker's tick there skips.
		clock.advance(HOUR);
		await b.runNow(sweepOf('worker-b'), { atStart: true });
		await a.runNow(sweepOf('worker-a'));
		expect(runs).toEqual(['worker-a', 'worker-b', 'worker-b']);
	});

	it('rows claimed more than a day ago are pruned', async () => {
		const { db } = await testDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-a');
		clock.advance(23 * HOUR);
		await claimTaskPeriod(db, clock, 'retention', HOUR, 'worker-a');
		clock.advance(2 * HOUR);
		expect(await pruneTaskRuns(db, clock)).toBe(1);
		expect((await db.scheduledTaskRun.findMany()).map((row) => row.periodStart)).toEqual(['2026-03-02T09:00:00.000Z']);
	});
});
