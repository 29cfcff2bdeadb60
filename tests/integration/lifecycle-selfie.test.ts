import { existsSync } from 'node:fs';
import path from 'node:path';
import { Api } from 'grammy';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { EMULATOR_BOT_TOKEN } from '../../src/lib/server/config/config.ts';
import { deliverPack } from '../../src/lib/server/jobs/delivery/deliver-pack.ts';
import { recordStage } from '../../src/lib/server/jobs/job-progress.ts';
import { jobFiles } from '../../src/lib/server/jobs/pipeline/job-files.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { STICKER_VARIANTS } from '../../src/lib/server/media/sticker-variants.ts';
import { FakeClock, HOUR } from '../../src/lib/server/time/clock.ts';
import { runTtlSweep } from '../../src/worker/tasks/ttl-sweep.task.ts';
import { createTelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { insertGuest, writeFileAt } from './lifecycle-fixtures.ts';
import { localFileStore } from '../helpers/file-store.ts';

// The first clock of the personal-data table, across two features: generation deletes the selfie
// as soon as the sticker set exists (deliverPack), and the TTL sweep takes every other drawing of
// the guest by PHOTO_TTL_HOURS.

describe('the selfie leaves when the set exists; the rest of the session folder by the TTL', () => {
	const tempDir = useTempDir('kiosk-selfie-');
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0)) await cleanup();
	});

	it('deliverPack against the emulator deletes the selfie; the face crop and stickers go at the TTL sweep', async () => {
		const emulator = await createTelegramEmulator({ botToken: EMULATOR_BOT_TOKEN });
		cleanups.push(() => emulator.close());
		const dataDir = tempDir();
		const { db } = await createTestDb(dataDir);
		cleanups.push(() => db.$disconnect());
		const start = Date.now();
		const clock = new FakeClock(new Date(start));
		const user = await emulator.control.createUser({ first_name: 'Dilnoza', language_code: 'en' });
		await emulator.control.sendUserMessage({ user_id: user.id, text: '/start' });
		const { token, jobId } = await insertGuest(db, {
			id: BigInt(user.id),
			at: clock.now().toISOString(),
			jobStatus: 'processing'
		});
		const files = jobFiles(dataDir, jobId!, token);
		const selfie = writeFileAt(path.join(files.sessionDir, 'selfie_ab.jpg'), new Date(start));
		await db.job.update({ where: { jobId: jobId! }, data: { photoPath: selfie } });
		const faceCrop = writeFileAt(files.faceCrop, new Date(start));
		const png = await sharp({
			create: { width: 512, height: 512, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 1 } }
		})
			.png()
			.toBuffer();
		for (let n = 1; n <= STICKER_VARIANTS.length; n++) writeFileAt(files.sticker(n), new Date(start), png);
		await recordStage(db, clock, jobId!, 'qa'); // the pipeline's progress row exists by delivery

		await deliverPack(
			{
				db,
				clock,
				logger: silentLogger,
				api: new Api(EMULATOR_BOT_TOKEN, { apiRoot: emulator.url }),
				botUsername: 'sticker_kiosk_bot',
				files,
				fileStore: localFileStore(dataDir),
				dataDir,
				locale: 'en',
				setTitle: 'My party stickers',
				signal: new AbortController().signal,
				enterStage: async () => undefined,
				crashPoint: () => undefined,
				sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
				holdsLease: async () => true
			},
			jobId!
		);

		const job = await db.job.findUniqueOrThrow({ where: { jobId: jobId! } });
		expect(job.packCreatedAt).not.toBeNull();
		expect(await emulator.control.getStickerSet(job.packName!)).not.toBeNull();
		expect(existsSync(selfie)).toBe(false); // gone at once, long before any TTL
		expect(existsSync(faceCrop)).toBe(true);

		clock.set(new Date(start + 71 * HOUR + 1000)); // PHOTO_TTL_HOURS=72: the sweep's cutoff is 71 h
		await runTtlSweep({ db, clock, logger: silentLogger, fileStore: localFileStore(dataDir), ttlHours: 72 });
		expect(existsSync(files.sessionDir)).toBe(false);
	}, 60_000);
});
