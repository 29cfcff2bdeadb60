import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ChangeFeed, changeFeedFor, watchSnapshots } from '../../src/lib/server/console/change-feed.ts';
import { readLiveSnapshot } from '../../src/lib/server/console/live-snapshot.ts';
import { queueGuestNotice } from '../../src/lib/server/jobs/guest-notices.repository.ts';
import { jobProblemWords } from '../../src/lib/components/console/job/job-words.ts';
import { silentLogger, type Logger } from '../../src/lib/server/log/logger.ts';
import { FakeClock, systemClock } from '../../src/lib/server/time/clock.ts';
import { useTestDb } from '../helpers/test-db.ts';
import { insertGuest } from './console-fixtures.ts';

describe('live console data', () => {
	const freshDb = useTestDb('console-live-');

	it('pushes a new snapshot when another process changes a job row, and only then', async () => {
		const { db, dbPath } = await freshDb();
		const [jobId] = await insertGuest(db, systemClock, { id: 3330001n, jobs: [{ status: 'failed' }] });
		const settings = { deadlineMinutes: 20, imageQuotaPerDay: null, imageWarnAt: 500 };
		const controller = new AbortController();
		const stream = watchSnapshots(changeFeedFor(db, silentLogger), controller.signal, () =>
			readLiveSnapshot(db, systemClock, settings)
		);

		const first = await stream.next();
		expect(first.value?.jobCounts).toMatchObject({ failed: 1, done: 0 });

		// Another connection (like the worker, or a person with the sqlite3 CLI) changes the job.
		const other = new Database(dbPath);
		other
			.prepare("UPDATE jobs SET status = 'done', link_sent_at = ? WHERE job_id = ?")
			.run(new Date().toISOString(), jobId);
		other.close();

		const second = await stream.next();
		expect(second.value?.jobCounts).toMatchObject({ failed: 0, done: 1 });
		expect(second.value?.recentJobs[0]).toMatchObject({ jobId, status: 'done' });
		controller.abort();
		expect((await stream.next()).done).toBe(true);
	}, 20_000);

	it('stops polling when the last watcher leaves', async () => {
		let reads = 0;
		const feed = new ChangeFeed(async () => String(++reads), silentLogger, 10);
		const stop = feed.subscribe(() => undefined);
		await new Promise((resolve) => setTimeout(resolve, 60));
		stop();
		const after = reads;
		await new Promise((resolve) => setTimeout(resolve, 60));
		expect(after).toBeGreaterThan(0);
		expect(reads).toBe(after);
	});

	it('a marker that cannot be read is logged each time, and the feed keeps polling', async () => {
		const warned: string[] = [];
		let twice!: () => void;
		const heardTwice = new Promise<void>((resolve) => (twice = resolve));
		const logger = {
			warn: (_details: unknown, message: string) => {
				warned.push(message);
				if (warned.length === 2) twice();
			}
		} as unknown as Logger;
		const feed = new ChangeFeed(
			async () => {
				throw new Error('database is locked');
			},
			logger,
			10
		);
		const stop = feed.subscribe(() => undefined);
		await heardTwice;
		stop();
		expect(warned.slice(0, 2)).toEqual([
			'console change marker could not be read',
			'console change marker could not be read'
		]);
	});

	it('counts deadlines, open sessions and today’s spend for the Live page', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-03-01T18:00:00.000Z');
		await insertGuest(db, clock, { id: 3330002n, jobs: [{ status: 'queued', costs: [0.25] }, { status: 'done' }] });
		await db.session.create({
			data: {
				sessionToken: 'open1',
				status: 'linked',
				createdAt: clock.now().toISOString(),
				updatedAt: clock.now().toISOString()
			}
		});
		await db.job.updateMany({ where: { status: 'done' }, data: { linkSentAt: clock.now().toISOString() } });
		const live = await readLiveSnapshot(db, clock, { deadlineMinutes: 20, imageQuotaPerDay: 1000, imageWarnAt: 500 });
		expect(live.jobCounts).toMatchObject({ queued: 1, done: 1 });
		expect(live.activeJobs.map((j) => j.status)).toEqual(['queued']);
		expect(live.openSessions.find((s) => s.status === 'linked')?.count).toBe(1);
		expect(live.today).toMatchObject({
			packs: 1,
			spendUsd: 0.25,
			imageRequests: 1,
			quota: 1000,
			quotaDayStart: '2026-03-01T08:00:00.000Z'
		});
		expect(live.packsPerHour.at(-1)?.count).toBe(1);
	});

	it('gives a failed job its failure notice, so the jobs table says what its job page says', async () => {
		const { db } = await freshDb();
		const clock = new FakeClock('2026-03-01T18:00:00.000Z');
		const guest = 3330003n;
		const [failed, done] = await insertGuest(db, clock, {
			id: guest,
			jobs: [{ status: 'failed' }, { status: 'done' }]
		});
		await db.job.update({ where: { jobId: failed! }, data: { error: 'RefusedError: SAFETY at candidate 0' } });
		await db.$transaction((tx) =>
			queueGuestNotice(
				tx,
				{ jobId: failed!, telegramUserId: guest },
				{ kind: 'failure', textKey: 'refused' },
				clock.now().toISOString()
			)
		);
		const live = await readLiveSnapshot(db, clock, { deadlineMinutes: 20, imageQuotaPerDay: null, imageWarnAt: null });
		const byId = new Map(live.recentJobs.map((j) => [j.jobId, j]));
		expect(byId.get(failed!)?.notices).toEqual([{ kind: 'failure', textKey: 'refused', state: 'queued' }]);
		expect(byId.get(done!)?.notices).toEqual([]);
		expect(jobProblemWords(byId.get(failed!)!)).toBe(
			'the image service refused to draw this photo — the guest is being told'
		);
	});
});
