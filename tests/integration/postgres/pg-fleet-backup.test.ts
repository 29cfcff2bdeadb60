import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_STARTED_KEY, recordBackupStarted } from '../../../src/lib/server/backup/backup-status.ts';
import { openPostgresDatabase } from '../../../src/lib/server/db/client.ts';
import { readSetting } from '../../../src/lib/server/settings/settings.repository.ts';
import { taskPeriodClaims } from '../../../src/lib/server/fleet/task-periods.ts';
import { silentLogger } from '../../../src/lib/server/log/logger.ts';
import { DAY, FakeClock, HOUR } from '../../../src/lib/server/time/clock.ts';
import { Scheduler } from '../../../src/worker/scheduler.ts';
import { scheduledTask } from '../../../src/worker/schedule.ts';
import { runBackupIfDue, type BackupTaskDeps } from '../../../src/worker/tasks/backup.task.ts';
import { usePgTestDb } from '../../helpers/pg-test-db.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

/** The backup as the worker schedules it: its period and fleet rules from worker/schedule.ts. */
const backupTask = (deps: BackupTaskDeps) => scheduledTask('backup', async () => void (await runBackupIfDue(deps)));

/**
 * The daily backup on a fleet: every worker runs the backup task at start and every hour, and they
 * share one BACKUP_DIR (a mounted folder). Two workers starting together must take one pg_dump, not
 * one each. Each worker has its own client and its own clock, a second apart (two hosts), so two
 * dumps would be two files.
 */
describe('fleet backups on PostgreSQL', () => {
	const database = usePgTestDb();
	const tempDir = useTempDir('pg-fleet-backup-');

	it('two workers starting at once take one backup; later periods take one when it is due and none before', async () => {
		const { url } = database();
		const backupDir = path.join(tempDir(), 'backups');
		const workers = ['worker-a', 'worker-b'].map((id, n) => {
			const db = openPostgresDatabase(url);
			const clock = new FakeClock(new Date(Date.parse('2027-05-10T10:20:00.000Z') + n * 1000));
			const scheduler = new Scheduler(silentLogger, taskPeriodClaims(db, clock, id), () => clock.now().getTime());
			const task = backupTask({ db, clock, logger: silentLogger, database: { engine: 'postgresql', url }, backupDir });
			return { db, clock, scheduler, task };
		});
		const dumps = () => readdirSync(backupDir).filter((name) => name.endsWith('.pgdump'));
		const everyWorker = (run: (worker: (typeof workers)[number]) => Promise<void>) => Promise.all(workers.map(run));
		try {
			// Both start in the same hour: the run at start is what Scheduler.add makes first.
			await everyWorker((w) => w.scheduler.runNow(w.task, { atStart: true }));
			expect(dumps()).toHaveLength(1);

			// The next hour's ticks: the backup is a day from due, nobody dumps.
			await everyWorker(async (w) => (w.clock.advance(HOUR), await w.scheduler.runNow(w.task)));
			expect(dumps()).toHaveLength(1);

			// A day later it is due again: one more dump for the fleet.
			await everyWorker(async (w) => (w.clock.advance(DAY), await w.scheduler.runNow(w.task)));
			expect(dumps()).toHaveLength(2);

			// A worker restarted later in that hour (its run at start) does not dump a third time.
			await workers[1]!.scheduler.runNow(workers[1]!.task, { atStart: true });
			expect(dumps()).toHaveLength(2);
			const periods = await workers[0]!.db.scheduledTaskRun.findMany({
				where: { task: 'backup' },
				orderBy: { periodStart: 'asc' }
			});
			expect(periods.map((p) => p.periodStart)).toEqual([
				'2027-05-10T10:00:00.000Z',
				'2027-05-10T11:00:00.000Z',
				'2027-05-11T11:00:00.000Z'
			]);
		} finally {
			await Promise.all(workers.map((w) => w.scheduler.stop().then(() => w.db.$disconnect())));
		}
	}, 60_000);

	it('a dump still running when the next hour starts is not taken again; one whose worker died is, after half an hour', async () => {
		const { url } = database();
		const backupDir = path.join(tempDir(), 'backups');
		const db = openPostgresDatabase(url);
		const clock = new FakeClock('2027-06-01T10:59:58.000Z');
		const scheduler = new Scheduler(silentLogger, taskPeriodClaims(db, clock, 'worker-b'), () => clock.now().getTime());
		const task = backupTask({ db, clock, logger: silentLogger, database: { engine: 'postgresql', url }, backupDir });
		const dumps = () =>
			existsSync(backupDir) ? readdirSync(backupDir).filter((name) => name.endsWith('.pgdump')) : [];
		try {
			// Worker A started the day's dump in the last seconds of 10:00 and is still writing it.
			await recordBackupStarted(db, clock);
			clock.advance(2100); // 11:00:00.1, worker B's tick for the new hour
			await scheduler.runNow(task);
			expect(dumps()).toHaveLength(0);
			// Worker A was killed mid-dump: its mark goes stale, and a later hour's check dumps.
			clock.advance(HOUR);
			await scheduler.runNow(task);
			expect(dumps()).toHaveLength(1);
			expect(await readSetting(db, BACKUP_STARTED_KEY)).toBeNull();
		} finally {
			await scheduler.stop();
			await db.$disconnect();
		}
	}, 60_000);
});
