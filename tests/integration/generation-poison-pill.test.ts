import { describe, expect, it } from 'vitest';
import { startBuiltWorker } from '../helpers/node-process.ts';
import {
	waitForBotText,
	type GenerationWorld,
	type WorkerProcess,
	useWorkerProcessWorld
} from './generation-harness.ts';

const MAX_ATTEMPTS = 3;
const FAILURE_TEXT = /could not draw your stickers/;

/**
 * A poison pill: a job whose run kills its worker every time (CRASH_AT=after_claim with
 * CRASH_JOB=<its id>, test builds only: the real worker SIGKILLs itself whenever it has just
 * claimed that job). The worker is started again each time it dies, as systemd's Restart=always
 * does. Every claim counts as an attempt; the sweep that finds the last allowed claim dead fails
 * the job for good and tells the guest, instead of putting it back in the queue until the
 * 20-minute deadline. The jobs queued behind it are drawn and delivered meanwhile. The lease is a
 * normal one (30 s): each restart takes over its dead predecessor's lock and requeues its job at
 * start, so no death waits out a lease — the cap is counted the same way all the same.
 */
describe('a job that kills its worker every time', () => {
	const workers = useWorkerProcessWorld('gen-poison-');
	const children = workers.children;
	let world: GenerationWorld | undefined;

	it(`is failed for good after ${MAX_ATTEMPTS} claims with one failure notice; the jobs behind it finish`, async () => {
		world = await workers.open();
		const poison = await world.queueJob({ createdAt: new Date(Date.now() - 2000), viaOutbox: true, stillPack: true });
		const others = [
			await world.queueJob({ createdAt: new Date(Date.now() - 1000), stillPack: true }),
			await world.queueJob({ stillPack: true })
		];
		// One slot: a job running beside the poison pill would die with the worker too (and lose an attempt).
		const env = {
			...world.env,
			LOG_LEVEL: 'warn',
			CRASH_AT: 'after_claim',
			CRASH_JOB: String(poison),
			JOB_LEASE_SECONDS: '30',
			WORKER_SLOTS: '1',
			JOB_MAX_ATTEMPTS: String(MAX_ATTEMPTS)
		};
		const db = world.db;
		const allEnded = async (): Promise<void> => {
			const deadline = Date.now() + 150_000;
			for (;;) {
				const jobs = await db.job.findMany({ select: { status: true } });
				if (jobs.every((job) => job.status === 'done' || job.status === 'failed')) return;
				if (Date.now() > deadline) throw new Error(`jobs still running: ${JSON.stringify(jobs)}`);
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		};

		let deaths = 0;
		let survivor: WorkerProcess | undefined;
		const ended = allEnded();
		while (!survivor) {
			const worker = startBuiltWorker({ env });
			children.push(worker);
			const outcome = await Promise.race([worker.finished.then((finished) => ({ finished })), ended.then(() => null)]);
			if (outcome === null) {
				survivor = worker;
				break;
			}
			const { finished } = outcome;
			expect(finished.signal, finished.stdout.slice(-2000) + finished.stderr.slice(-2000)).toBe('SIGKILL');
			deaths++;
			// Before the cap this loop would go on until the hard deadline; more deaths than claims allowed is the old fault.
			expect(deaths).toBeLessThanOrEqual(MAX_ATTEMPTS);
		}
		expect(deaths).toBe(MAX_ATTEMPTS);

		const job = await db.job.findUniqueOrThrow({ where: { jobId: poison } });
		expect(job.status).toBe('failed');
		expect(job.attempts).toBe(MAX_ATTEMPTS);
		expect(job.error).toMatch(/^worker lost: /);
		for (const jobId of others)
			expect(
				await db.job.findUniqueOrThrow({ where: { jobId }, select: { status: true, linkSentAt: true } })
			).toMatchObject({ status: 'done', linkSentAt: expect.any(String) });

		const said = await waitForBotText(world, world.guestId, FAILURE_TEXT);
		expect(said.filter((text) => FAILURE_TEXT.test(text))).toHaveLength(1);
		expect(said.filter((text) => text.includes('https://t.me/addstickers/'))).toHaveLength(others.length);
		expect(
			await db.guestNotice.findMany({ where: { jobId: poison, kind: 'failure' }, select: { state: true } })
		).toEqual([{ state: 'sent' }]);
		survivor.kill('SIGTERM');
		await survivor.finished;
	}, 240_000);
});
