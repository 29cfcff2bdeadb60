import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { createQueueDeps } from '../../src/worker/queue/start-queue.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, stopLoopMidJob, type GenerationWorld } from './generation-harness.ts';
import { jobLoopInput } from '../helpers/job-loop-input.ts';

/** The "job claimed" line carries the claim's own time, which bench/scale-out.ts reads from the workers. */
describe('the job loop’s claim line', () => {
	const tempDir = useTempDir('claim-log-');
	let world: GenerationWorld | undefined;
	afterEach(async () => world?.close());

	it('names the job, its attempt and claimMs, the time the claim took', async () => {
		world = await createGenerationWorld(tempDir());
		const jobId = await world.queueJob();
		let text = '';
		const stdout = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
		const logger = createLogger('worker', 'info', { stdout });
		const deps = await createQueueDeps(jobLoopInput(world, world.config(), { logger }));
		await stopLoopMidJob(deps);

		const claims = text
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>)
			.filter((line) => line.msg === 'job claimed');
		expect(claims).toEqual([expect.objectContaining({ jobId, attempts: 1, claimMs: expect.any(Number) })]);
		expect(claims[0]!.claimMs).toBeGreaterThanOrEqual(0);
	}, 60_000);
});
