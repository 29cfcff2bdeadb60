import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPOSITE_CRASH_STEP, CRASH_STEPS } from '../../src/lib/server/jobs/run/crash-points.ts';
import {
	crashAndRestartWorker,
	waitForJobStatus,
	type GenerationWorld,
	useWorkerProcessWorld
} from './generation-harness.ts';

/**
 * Exactly one sticker set and one link, whatever step a crash hits: the real worker process is killed with SIGKILL at each step of a job and started
 * again. How the kill is placed: CRASH_AT=<step> (read only when NODE_ENV=test) makes the worker
 * SIGKILL itself the first time it reaches that step — polling the database from outside could not
 * hit the narrow ones (between the link edit and its commit). The restarted worker takes over the killed
 * launch's stale instance lock, so it requeues the job at start (the lease is a normal 30 s, never
 * waited out) and finishes it. The emulator (in this process, so it outlives the
 * worker) counts what reached Telegram: exactly one sticker set and exactly one link message.
 */
describe('a worker killed at any step of a job', () => {
	const workers = useWorkerProcessWorld('gen-crash-');
	const children = workers.children;
	let world: GenerationWorld | undefined;

	for (const step of CRASH_STEPS) {
		it(`${step}: restarts, finishes, one set and one link`, async () => {
			world = await workers.open();
			const jobId = await world.queueJob({ stillPack: true });
			const second = await crashAndRestartWorker(world, step, children);
			const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
			expect(status, (await world.db.job.findUnique({ where: { jobId } }))?.error ?? '').toBe('done');

			const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
			const counts = await world.emulator.control.callCounts();
			expect(counts.methods.createNewStickerSet ?? 0).toBe(1);
			expect((await world.emulator.control.getStickerSet(job.packName!))?.stickers).toHaveLength(12);
			const messages = await world.emulator.control.chatMessages(world.guestId);
			expect(messages.filter((m) => m.text?.includes('https://t.me/addstickers/'))).toHaveLength(1);
			expect(job.linkSentAt).not.toBeNull();
			expect(existsSync(job.photoPath)).toBe(false);
			second.kill('SIGTERM');
			await second.finished;
		}, 150_000);
	}

	it(`${COMPOSITE_CRASH_STEP} (RENDER_MODE=composite): resumes the heads, draws the head once, one set and one link`, async () => {
		world = await workers.open();
		const jobId = await world.queueJob({ stillPack: true });
		const second = await crashAndRestartWorker(world, COMPOSITE_CRASH_STEP, children, { RENDER_MODE: 'composite' });
		const status = await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000);
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(status, job.error ?? '').toBe('done');
		expect(job.renderMode).toBe('composite');
		// The head drawn before the crash was kept (head.png): the restarted worker did not pay for it again.
		expect(await world.db.apiUsage.count({ where: { jobId, stage: 'heads' } })).toBe(1);
		const log = JSON.parse(
			readFileSync(path.join(world.dataDir, 'debug_sheets', `job${jobId}_heads.json`), 'utf8')
		) as { stickers: Record<string, { placed: boolean }> };
		expect(Object.values(log.stickers).filter((s) => s.placed)).toHaveLength(12);
		expect((await world.emulator.control.callCounts()).methods.createNewStickerSet).toBe(1);
		const messages = await world.emulator.control.chatMessages(world.guestId);
		expect(messages.filter((m) => m.text?.includes('https://t.me/addstickers/'))).toHaveLength(1);
		second.kill('SIGTERM');
		await second.finished;
	}, 150_000);
});
