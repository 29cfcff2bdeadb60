import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import type { JobLoop } from '../../src/worker/queue/job-loop.ts';
import { createJobLoop } from '../../src/worker/queue/start-queue.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createGenerationWorld, waitForJobStatus, type GenerationWorld } from './generation-harness.ts';

describe('generation with the offline provider and the Telegram emulator', () => {
	const tempDir = useTempDir('gen-offline-');
	let world: GenerationWorld | undefined;
	let loop: JobLoop | undefined;
	afterEach(async () => {
		await loop?.stop(1000);
		await world?.close();
	});

	it('turns a queued job into a 12-sticker set, one link, no selfie, no appearance card, usage rows per stage', async () => {
		world = await createGenerationWorld(tempDir());
		const jobId = await world.queueJob();
		const config = world.config();
		loop = await createJobLoop({ config, db: world.db, clock: systemClock, logger: createLogger('test', 'silent'), api: world.api, workerId: 'test-worker' });
		loop.start();
		const final = await waitForJobStatus(world.db, jobId, ["done", "failed"], 90_000);
		if (final !== "done") console.log((await world.db.job.findUnique({ where: { jobId } }))?.error, JSON.stringify(await world.db.apiUsage.findMany({ where: { jobId } })));
		expect(final).toBe("done");

		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.appearanceJson).toBeNull();
		expect(job.linkSentAt).not.toBeNull();
		expect(job.providerUsed).toBe('offline');
		expect(existsSync(job.photoPath)).toBe(false);
		const set = await world.emulator.control.getStickerSet(job.packName!);
		expect(set?.stickers).toHaveLength(12);
		expect(job.packName).toMatch(new RegExp(`^p${world.guestId}_1_by_`));
		for (const sticker of set!.stickers) {
			const bytes = await world.emulator.control.fileBytes(sticker.url);
			const meta = await sharp(bytes).metadata();
			expect(bytes.length).toBeLessThanOrEqual(512 * 1024);
			expect(Math.max(meta.width!, meta.height!)).toBe(512);
			expect(meta.hasAlpha).toBe(true);
		}
		const messages = await world.emulator.control.chatMessages(world.guestId);
		expect(messages.filter((m) => m.text?.includes(`https://t.me/addstickers/${job.packName}`))).toHaveLength(1);
		const user = await world.db.user.findUniqueOrThrow({ where: { telegramUserId: BigInt(world.guestId) } });
		expect(user.packLink).toBe(`https://t.me/addstickers/${job.packName}`);
		expect(user.packCompletedAt).not.toBeNull();
		const rows = await world.db.apiUsage.findMany({ where: { jobId } });
		const stages = rows.map((u) => u.stage);
		expect(new Set(stages)).toEqual(new Set(['passport', 'anchor', 'anchor_verify', 'sheet', 'qa_pack']));
		expect(stages.filter((s) => s === 'sheet')).toHaveLength(2);
		// The local verdict is recorded like a paid review, so spend and stage tables are uniform.
		expect(rows.filter((u) => u.stage === 'qa_pack')).toEqual([expect.objectContaining({ kind: 'qa', provider: 'offline', estCostUsd: 0, ok: 1 })]);
		const progress = await world.db.jobProgress.findUniqueOrThrow({ where: { jobId } });
		expect(progress.stage).toBe('done');
		const counts = await world.emulator.control.callCounts();
		expect(counts.methods.createNewStickerSet).toBe(1);
	}, 120_000);
});
