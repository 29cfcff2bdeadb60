import { rmSync, writeFileSync } from 'node:fs';
import { ChatCooldown } from '../../src/lib/server/telegram/flood-control.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { claimNextJob } from '../../src/lib/server/jobs/job-claims.repository.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { createOfflineProvider } from '../../src/lib/server/providers/offline/offline.provider.ts';
import { FakeClock } from '../../src/lib/server/time/clock.ts';
import { SelfieMissing } from '../../src/lib/server/jobs/job-errors.ts';
import { handleJobFailure } from '../../src/lib/server/jobs/run/job-failure.ts';
import { deliverGuestNotices } from '../../src/lib/server/jobs/guest-notice-outbox.ts';
import { abortableSleep, type QueueDeps } from '../../src/lib/server/jobs/run/queue-deps.ts';
import {
	noticeDepsFor,
	useGenerationWorld,
	waitForBotText,
	waitForJobStatus,
	type GenerationWorld
} from './generation-harness.ts';
import { sendPacingFor } from '../helpers/send-pacing.ts';

/**
 * Which failures end a job at once and which are retried. Only a missing selfie is beyond retrying:
 * a missing temporary file (two writers of one sticker, a swept debug file) once failed a job for
 * good because every ENOENT was treated as permanent.
 */
describe('failures that end a job and failures that are retried', () => {
	const worlds = useGenerationWorld('gen-failures-');

	it('a selfie deleted before the job ran: failed on the first attempt, the guest told in their language', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		rmSync(job.photoPath);
		await worlds.startLoop();
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 30_000)).toBe('failed');
		const failed = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(failed.attempts).toBe(1);
		expect(failed.error).toMatch(/selfie is no longer on disk/);
		expect(await world.db.apiUsage.count({ where: { jobId } })).toBe(0);
		const said = await waitForBotText(world, world.guestId, /sorry|could not/i);
		expect(said.some((text) => /sorry|could not/i.test(text))).toBe(true);
	}, 60_000);

	it('a photo with no face (a wall): failed on the first attempt, not three; the guest asked for a new photo', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		const wall = await sharp({
			create: { width: 900, height: 1200, channels: 3, background: { r: 186, g: 180, b: 168 } }
		})
			.jpeg()
			.toBuffer();
		writeFileSync(job.photoPath, wall);
		await worlds.startLoop();
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 30_000)).toBe('failed');
		const failed = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(failed.attempts).toBe(1);
		expect(failed.error).toMatch(/NoFaceFound: no face found/);
		expect(await world.db.apiUsage.count({ where: { jobId, stage: 'passport' } })).toBe(1);
		const said = await waitForBotText(world, world.guestId, /could not see a face/);
		// Told once. Not necessarily last: a "Generating…" notice already on its way when the job failed
		// may arrive after it on a busy machine.
		expect(said.filter((text) => /could not see a face/.test(text))).toHaveLength(1);
	}, 60_000);

	it('any other missing file (ENOENT) is retried with backoff, not failed for good', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const claimed = await claimNextJob(world.db, clock, 'w1', 30_000);
		const tempGone = Object.assign(new Error("ENOENT: no such file or directory, rename 'sticker_1.png.123.tmp'"), {
			code: 'ENOENT'
		});
		await handleJobFailure(depsFor(world, clock), {
			jobId: claimed!.jobId,
			attempts: claimed!.attempts,
			error: tempGone,
			signal: new AbortController().signal
		});
		const retried = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(retried.status).toBe('queued');
		expect(retried.error).toMatch(/^requeue: .*ENOENT/);
		expect((await world.db.jobProgress.findUniqueOrThrow({ where: { jobId } })).notBefore).not.toBeNull();

		clock.advance(3_600_000);
		const again = await claimNextJob(world.db, clock, 'w1', 30_000);
		await handleJobFailure(depsFor(world, clock), {
			jobId,
			attempts: again!.attempts,
			error: new SelfieMissing(),
			signal: new AbortController().signal
		});
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).status).toBe('failed');
	}, 60_000);

	it('a failure notice Telegram refuses at the moment of failure is queued, then delivered by the outbox once', async () => {
		const world = await worlds.open();
		const jobId = await world.queueJob();
		const clock = new FakeClock('2026-03-01T10:00:00.000Z');
		const deps = depsFor(world, clock);
		const claimed = await claimNextJob(world.db, clock, 'w1', 30_000);
		await world.emulator.control.injectFault({
			method: 'sendMessage',
			chat_id: world.guestId,
			kind: '5xx',
			status: 502
		});
		await handleJobFailure(deps, {
			jobId,
			attempts: claimed!.attempts,
			error: new SelfieMissing(),
			signal: new AbortController().signal
		});
		expect((await world.db.job.findUniqueOrThrow({ where: { jobId } })).status).toBe('failed');
		expect(await world.db.guestNotice.findFirstOrThrow({ where: { jobId, kind: 'failure' } })).toMatchObject({
			state: 'queued',
			attempts: 1,
			textKey: 'failed'
		});

		clock.advance(5_000);
		expect(await deliverGuestNotices(deps.notices)).toBe(1);
		expect(await deliverGuestNotices(deps.notices)).toBe(0);
		const said = (await world.emulator.control.chatMessages(world.guestId)).filter(
			(m) => m.from_bot && /could not draw your stickers/.test(m.text ?? '')
		);
		expect(said).toHaveLength(1);
	}, 60_000);
});

function depsFor(world: GenerationWorld, clock: FakeClock): QueueDeps {
	const config = world.config();
	return {
		db: world.db,
		clock,
		logger: silentLogger,
		api: world.api,
		provider: createOfflineProvider(),
		prices: { inputPerMTok: 0, outputTextPerMTok: 0, outputImagePerMTok: 0 },
		workerId: 'w1',
		fileStore: world.fileStore,
		settings: {
			slots: 1,
			maxAttempts: 3,
			leaseMs: 30_000,
			pollMs: 100,
			backoffBaseMs: 1000,
			backoffCapMs: 60_000,
			retryBaseMs: 10,
			dataDir: config.dataDir,
			artStyle: 'cartoon',
			renderMode: 'figure',
			adminIds: []
		},
		botUsername: async () => 'kiosk_bot',
		crashPoint: () => undefined,
		notices: noticeDepsFor(world, clock),
		alerts: {
			db: world.db,
			clock,
			api: world.api,
			logger: silentLogger,
			pacing: sendPacingFor(world.db, clock),
			cooldown: new ChatCooldown()
		},
		// These jobs fail before any clip is made.
		videoTools: null,
		sleep: abortableSleep
	};
}
