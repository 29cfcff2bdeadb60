import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.ts';
import {
	claimNextJob,
	deadLeaseHolders,
	requeueAbandonedJobs
} from '../../src/lib/server/jobs/job-claims.repository.ts';
import { FakeClock, SECOND } from '../../src/lib/server/time/clock.ts';
import {
	WORKER_STALE_AFTER_SECONDS,
	recordHeartbeat,
	registerWorker,
	type GoneLaunch
} from '../../src/lib/server/workers/worker-registry.ts';
import { useTestDb } from '../helpers/test-db.ts';

/**
 * A worker killed mid-job used to leave its jobs claimed until their lease ran out, and the worker
 * restarted in its data folder waited that out. Now the start's sweep also takes the jobs whose
 * lease holder the registry knows dead — the launch whose stale instance lock the start took over
 * (`gone`), or one silent past the stale rule — at once, each claim still counted as an attempt so
 * the JOB_MAX_ATTEMPTS cap holds. A live worker's jobs are never touched. Time is a FakeClock; on
 * both engines (TEST_DB_ENGINE).
 */
describe('the start sweep takes the jobs of dead launches without waiting for their leases', () => {
	const openDb = useTestDb('dead-launch-jobs-');
	const LEASE_MS = 30_000;
	const MAX_ATTEMPTS = 3;
	const CRASHED: GoneLaunch = { hostname: 'host-a', pid: 4242 };

	async function world() {
		const { db } = await openDb();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const register = (id: string, hostname = 'host-a', pid = 100) =>
			registerWorker(db, clock, { id, pid, hostname, version: 'test', slots: 1 });
		await register('me', 'host-a', 200);
		await register('crashed', CRASHED.hostname, CRASHED.pid);
		await register('live', 'host-b', 300);
		/** The start's sweep as JobLoop runs it, for the worker 'me'. */
		const startSweep = async (gone: GoneLaunch | null) =>
			requeueAbandonedJobs(db, clock, {
				maxAttempts: MAX_ATTEMPTS,
				deadWorkers: await deadLeaseHolders(db, clock, 'me', gone)
			});
		return { db, clock, startSweep };
	}

	async function queueJobs(db: Db, count: number): Promise<void> {
		const at = '2026-03-01T09:00:00.000Z';
		for (let i = 0; i < count; i++)
			await db.job.create({
				data: {
					telegramUserId: 42n,
					sessionToken: `s${i}`,
					photoPath: `/nowhere/${i}.jpg`,
					templateId: 'tuxedo',
					status: 'queued',
					createdAt: at,
					updatedAt: at
				}
			});
	}

	it('puts the taken-over launch’s job back at once, attempt counted; the live worker’s stays claimed', async () => {
		const { db, clock, startSweep } = await world();
		await queueJobs(db, 2);
		const crashedJob = (await claimNextJob(db, clock, 'crashed', LEASE_MS))!;
		const liveJob = (await claimNextJob(db, clock, 'live', LEASE_MS))!;
		clock.advance(SECOND); // both beat a moment ago and both leases have 29 s to run

		// Without the takeover the registry cannot tell the crashed launch is gone: its lease is waited out.
		expect(await startSweep(null)).toEqual({ requeued: [], failed: [] });
		expect(await startSweep(CRASHED)).toEqual({ requeued: [crashedJob.jobId], failed: [] });

		const requeued = await db.job.findUniqueOrThrow({ where: { jobId: crashedJob.jobId } });
		expect(requeued).toMatchObject({ status: 'queued', attempts: 1 });
		expect(requeued.error).toMatch(/^requeued: /);
		expect(await db.jobLease.findUnique({ where: { jobId: crashedJob.jobId } })).toBeNull();
		// Due at once: the restarted worker claims it now, and that claim is the job's second attempt.
		expect(await claimNextJob(db, clock, 'me', LEASE_MS)).toMatchObject({ jobId: crashedJob.jobId, attempts: 2 });

		expect(await db.job.findUniqueOrThrow({ where: { jobId: liveJob.jobId } })).toMatchObject({
			status: 'processing',
			attempts: 1
		});
		expect(await db.jobLease.findUniqueOrThrow({ where: { jobId: liveJob.jobId } })).toMatchObject({
			workerId: 'live'
		});
	});

	it('never takes this worker’s own job, even when the gone pid is its own', async () => {
		const { db, clock, startSweep } = await world();
		await queueJobs(db, 1);
		const mine = (await claimNextJob(db, clock, 'me', 600_000))!;
		// Its heartbeat is late too (past the stale rule), its lease still runs.
		clock.advance((WORKER_STALE_AFTER_SECONDS + 1) * SECOND);
		expect(await startSweep({ hostname: 'host-a', pid: 200 })).toEqual({ requeued: [], failed: [] });
		expect(await db.job.findUniqueOrThrow({ where: { jobId: mine.jobId } })).toMatchObject({ status: 'processing' });
	});

	it('takes the job of a launch the registry calls dead (silent past its stale rule) before its lease runs out', async () => {
		const { db, clock, startSweep } = await world();
		await queueJobs(db, 2);
		const LONG_LEASE_MS = 600_000;
		const silentJob = (await claimNextJob(db, clock, 'crashed', LONG_LEASE_MS))!;
		const liveJob = (await claimNextJob(db, clock, 'live', LONG_LEASE_MS))!;
		const stale = await db.job.create({
			data: {
				telegramUserId: 43n,
				sessionToken: 'unknown-holder',
				photoPath: '/nowhere/u.jpg',
				templateId: 'tuxedo',
				status: 'queued',
				createdAt: '2026-03-01T09:30:00.000Z',
				updatedAt: '2026-03-01T09:30:00.000Z'
			}
		});
		// A holder with no registry row is not known dead: its job waits for its lease as before.
		expect(await claimNextJob(db, clock, 'never-registered', LONG_LEASE_MS)).toMatchObject({ jobId: stale.jobId });
		for (let beat = 0; beat < 7; beat++) {
			clock.advance(5 * SECOND);
			await recordHeartbeat(db, clock, 'live', 1);
		}
		expect(await startSweep(null)).toEqual({ requeued: [silentJob.jobId], failed: [] });
		expect(await db.job.findUniqueOrThrow({ where: { jobId: liveJob.jobId } })).toMatchObject({
			status: 'processing'
		});
		expect(await db.job.findUniqueOrThrow({ where: { jobId: stale.jobId } })).toMatchObject({
			status: 'processing'
		});
	});

	it('fails the job for good when the dead launch held its last allowed claim (the poison-pill cap)', async () => {
		const { db, clock, startSweep } = await world();
		await queueJobs(db, 1);
		for (let claim = 1; claim < MAX_ATTEMPTS; claim++) {
			await claimNextJob(db, clock, 'crashed', LEASE_MS);
			expect((await startSweep(CRASHED)).requeued).toHaveLength(1);
		}
		const last = (await claimNextJob(db, clock, 'crashed', LEASE_MS))!;
		expect(last.attempts).toBe(MAX_ATTEMPTS);
		expect(await startSweep(CRASHED)).toEqual({ requeued: [], failed: [last.jobId] });
		const job = await db.job.findUniqueOrThrow({ where: { jobId: last.jobId } });
		expect(job).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
		expect(job.error).toMatch(/^worker lost: /);
		expect(await db.guestNotice.count({ where: { jobId: last.jobId, kind: 'failure' } })).toBe(1);
	});
});
