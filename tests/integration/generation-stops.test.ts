import { afterEach, describe, expect, it } from 'vitest';
import { LeaseLost, WorkerShutdown } from '../../src/lib/server/jobs/job-errors.ts';
import { claimNextJob } from '../../src/lib/server/jobs/job-claims.repository.ts';
import { handleJobFailure } from '../../src/lib/server/jobs/run/job-failure.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { createQueueDeps } from '../../src/worker/queue/start-queue.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, stopLoopMidJob, type GenerationWorld } from './generation-harness.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';

/**
 * A job stopped from outside is not a failed job. The worker's shutdown puts it back in the queue
 * with its attempt refunded; a slot that lost its lease leaves the job to whoever holds it now.
 * Which of the two it was is told by the type of the abort reason, never by its wording.
 */
describe('a job stopped from outside', () => {
	const tempDir = useTempDir('gen-stops-');
	let world: GenerationWorld | undefined;
	afterEach(async () => world?.close());

	it('the worker stopping mid-job: back to queued, the attempt refunded, the lease released', async () => {
		world = await createGenerationWorld(tempDir());
		const jobId = await world.queueJob();
		const deps = await createQueueDeps(jobLoopInput(world, world.config()));
		await stopLoopMidJob(deps);

		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job).toMatchObject({ status: 'queued', attempts: 0, error: 'requeue: worker stopped during the job' });
		expect(await world.db.jobLease.count({ where: { jobId } })).toBe(0);
	}, 60_000);

	it('a lost lease, or an abort reason that only reads like a shutdown, leaves the job alone', async () => {
		world = await createGenerationWorld(tempDir());
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const deps = await createQueueDeps(jobLoopInput(world, world.config(), { clock }));
		for (const reason of [new LeaseLost(), 'worker shutting down']) {
			const jobId = await world.queueJob();
			const claimed = (await claimNextJob(world.db, clock, 'w1', 30_000))!;
			const controller = new AbortController();
			controller.abort(reason);
			await handleJobFailure(deps, { jobId, attempts: claimed.attempts, error: reason, signal: controller.signal });
			expect(await world.db.job.findUniqueOrThrow({ where: { jobId } }), String(reason)).toMatchObject({
				status: 'processing',
				attempts: 1,
				error: null
			});
		}
		const jobId = await world.queueJob();
		const claimed = (await claimNextJob(world.db, clock, 'w1', 30_000))!;
		const controller = new AbortController();
		controller.abort(new WorkerShutdown());
		await handleJobFailure(deps, {
			jobId,
			attempts: claimed.attempts,
			error: controller.signal.reason,
			signal: controller.signal
		});
		expect(await world.db.job.findUniqueOrThrow({ where: { jobId } })).toMatchObject({
			status: 'queued',
			attempts: 0,
			error: 'requeue: worker stopped during the job'
		});
	}, 60_000);
});
