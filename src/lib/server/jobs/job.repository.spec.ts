import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../tests/helpers/test-db.ts';
import { useTempDir } from '../../../../tests/helpers/temp-dir.ts';
import type { JobStatus } from '../../schemas/job-status.ts';
import type { Db } from '../db/client.ts';
import { FakeClock } from '../time/clock.ts';
import { LeaseLost } from './job-errors.ts';
import {
	claimDelayNotice,
	completeJob,
	failJobForGood,
	failJobPastDeadline,
	markJobDelivering,
	recordAppearanceCard,
	recordPackCreated,
	recordPackName,
	requeueJob,
	retryFailedJob
} from './job.repository.ts';

describe('job.repository: every transition checks the status it starts from', () => {
	const tempDir = useTempDir('job-repo-');
	const clock = new FakeClock('2026-03-01T10:00:00.000Z');
	let db: Db;
	beforeEach(async () => {
		({ db } = await createTestDb(tempDir()));
	});
	afterEach(async () => db.$disconnect());

	async function jobIn(
		status: JobStatus,
		fields: { packCreatedAt?: string; linkSentAt?: string; attempts?: number } = {}
	): Promise<number> {
		const at = '2026-03-01T09:00:00.000Z';
		const job = await db.job.create({
			data: {
				telegramUserId: 7n,
				sessionToken: `s-${Math.random()}`,
				photoPath: '/x.jpg',
				templateId: 'chef',
				status,
				attempts: 1,
				createdAt: at,
				updatedAt: at,
				...fields
			}
		});
		return job.jobId;
	}
	const statusOf = async (jobId: number) => (await db.job.findUniqueOrThrow({ where: { jobId } })).status;

	it('a transition from the right status wins and writes its fields', async () => {
		const jobId = await jobIn('processing');
		expect(await markJobDelivering(db, clock, jobId)).toEqual({ won: true });
		expect(await db.$transaction((tx) => completeJob(tx, jobId, clock.now().toISOString()))).toEqual({ won: true });
		expect(await db.job.findUniqueOrThrow({ where: { jobId } })).toMatchObject({
			status: 'done',
			linkSentAt: '2026-03-01T10:00:00.000Z',
			error: null
		});
	});

	it('a transition from the wrong status is refused, says which status and rule, and changes nothing', async () => {
		const queued = await jobIn('queued');
		expect(await markJobDelivering(db, clock, queued)).toEqual({
			won: false,
			current: 'queued',
			refusal: `job ${queued} is queued: only a processing job starts delivering`
		});
		expect(await statusOf(queued)).toBe('queued');

		const done = await jobIn('done');
		const retry = await retryFailedJob(db, clock, done);
		expect(retry).toMatchObject({ won: false, current: 'done' });
		expect(!retry.won && retry.refusal).toBe(`job ${done} is done: only a failed job can be retried`);
		const failForGood = await failJobForGood(db, clock, done, 'boom');
		expect(failForGood).toMatchObject({ won: false, current: 'done' });
		expect(await db.job.findUniqueOrThrow({ where: { jobId: done } })).toMatchObject({ status: 'done', error: null });

		const processing = await jobIn('processing');
		const completed = await db.$transaction((tx) => completeJob(tx, processing, clock.now().toISOString()));
		expect(completed).toMatchObject({ won: false, current: 'processing' });
		expect(await db.job.findUniqueOrThrow({ where: { jobId: processing } })).toMatchObject({
			status: 'processing',
			linkSentAt: null
		});
	});

	it('a requeue of a job no slot holds is refused and leaves no backoff behind', async () => {
		const queued = await jobIn('queued');
		const result = await requeueJob(db, clock, queued, {
			error: 'boom',
			notBefore: new Date('2026-03-01T11:00:00.000Z'),
			refundAttempt: true
		});
		expect(result).toMatchObject({ won: false, current: 'queued' });
		expect(await db.job.findUniqueOrThrow({ where: { jobId: queued } })).toMatchObject({
			status: 'queued',
			attempts: 1,
			error: null
		});
		expect(await db.jobProgress.findUnique({ where: { jobId: queued } })).toBeNull();
	});

	it('the deadline does not fail a job whose sticker set exists', async () => {
		const withSet = await jobIn('delivering', { packCreatedAt: '2026-03-01T09:30:00.000Z' });
		const result = await failJobPastDeadline(db, clock, withSet, 'deadline');
		expect(result).toMatchObject({ won: false, current: 'delivering' });
		expect(!result.won && result.refusal).toMatch(/only an active job without a sticker set fails at the deadline/);
		expect(await statusOf(withSet)).toBe('delivering');
		const noSet = await jobIn('queued');
		expect(await failJobPastDeadline(db, clock, noSet, 'deadline')).toEqual({ won: true });
		expect(await statusOf(noSet)).toBe('failed');
	});

	it('a missing job is refused as gone', async () => {
		expect(await markJobDelivering(db, clock, 999)).toEqual({
			won: false,
			current: null,
			refusal: 'job 999 does not exist (the guest may have been reset)'
		});
	});

	it('a running job that lost its status stops with LeaseLost instead of writing', async () => {
		const failed = await jobIn('failed');
		await expect(recordAppearanceCard(db, clock, failed, '{"summary":"x"}')).rejects.toThrow(LeaseLost);
		await expect(recordAppearanceCard(db, clock, failed, '{"summary":"x"}')).rejects.toThrow(
			`job ${failed} is failed: only a processing job records what it drew`
		);
		expect((await db.job.findUniqueOrThrow({ where: { jobId: failed } })).appearanceJson).toBeNull();

		const processing = await jobIn('processing');
		await expect(recordPackName(db, processing, 'p7_1_by_bot')).rejects.toThrow(
			/is processing: only a delivering job records its sticker set/
		);
		await expect(recordPackCreated(db, clock, processing)).rejects.toThrow(LeaseLost);
		expect(await db.job.findUniqueOrThrow({ where: { jobId: processing } })).toMatchObject({
			packName: null,
			packCreatedAt: null
		});
	});

	it('a pack name stored by an earlier run is kept', async () => {
		const jobId = await jobIn('delivering');
		expect(await recordPackName(db, jobId, 'p7_1_by_bot')).toBe('p7_1_by_bot');
		expect(await recordPackName(db, jobId, 'p7_2_by_bot')).toBe('p7_1_by_bot');
	});

	it('of the deadline and the delivery racing for one job, exactly one wins', async () => {
		const jobId = await jobIn('processing');
		const [deadline, delivering] = await Promise.all([
			failJobPastDeadline(db, clock, jobId, 'deadline'),
			markJobDelivering(db, clock, jobId)
		]);
		expect([deadline.won, delivering.won].filter(Boolean)).toHaveLength(1);
		const loser = deadline.won ? delivering : deadline;
		expect(loser).toMatchObject({ won: false, current: await statusOf(jobId) });
	});

	it('the delay notice is claimed once, and never for a finished job', async () => {
		const active = await jobIn('processing');
		expect(await claimDelayNotice(db, active, clock.now().toISOString())).toBe(true);
		expect(await claimDelayNotice(db, active, clock.now().toISOString())).toBe(false);
		const done = await jobIn('done');
		expect(await claimDelayNotice(db, done, clock.now().toISOString())).toBe(false);
	});
});
