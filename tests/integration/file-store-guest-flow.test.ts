import { animatedStickerNumbers, DEFAULT_ANIMATED_STICKERS } from '../../src/lib/server/media/sticker-motion.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readJobDetail } from '../../src/lib/server/console/job-detail.ts';
import { readArtefact } from '../../src/lib/server/console/artefact-files.ts';
import { openFileStore } from '../../src/lib/server/files/open-file-store.ts';
import { rememberBotUsername } from '../../src/lib/server/guests/bot-identity.ts';
import { createKiosk } from '../../src/lib/server/kiosk/kiosk-keys.ts';
import { kioskDepsFrom } from '../../src/lib/server/kiosk/kiosk-auth.ts';
import { startKioskSession } from '../../src/lib/server/kiosk/kiosk-session.ts';
import { answerSelfieUpload } from '../../src/lib/server/kiosk/photo-upload-route.ts';
import { eraseGuest } from '../../src/lib/server/lifecycle/guest-erasure.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { systemClock } from '../../src/lib/server/time/clock.ts';
import { useS3Server } from '../helpers/s3-server.ts';
import { useGenerationWorld, waitForJobStatus } from './generation-harness.ts';
import { selfieJpeg } from './guest-photos.ts';
import { RuntimeSettings } from '../../src/lib/server/settings/runtime-settings.ts';

// FILE_STORE=s3 end to end: the kiosk's upload lands in the bucket, the worker draws from it and
// writes the stickers and debug sheets back, the console reads them from there, and an erasure
// empties the guest's prefixes. Nothing of the guest is left in DATA_DIR.

describe('a guest’s files on an S3 bucket, from the kiosk upload to the erasure', () => {
	const generation = useGenerationWorld('file-store-flow-');
	const s3Server = useS3Server();

	it('upload → bucket → pipeline → stickers in the bucket → console → erasure', async () => {
		const server = await s3Server();
		const world = await generation.open();
		const bucketEnv = { ...server.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' };
		const config = world.config(bucketEnv);
		const fileStore = await openFileStore(config);
		const app = {
			config,
			db: world.db,
			clock: systemClock,
			logger: silentLogger,
			version: 'test',
			fileStore,
			runtime: new RuntimeSettings({ db: world.db, clock: systemClock, config })
		};
		await rememberBotUsername(world.db, systemClock, (await world.api.getMe()).username);
		const { kiosk, key } = await createKiosk(world.db, systemClock, 'hall-kiosk');
		const started = await startKioskSession(kioskDepsFrom(app), kiosk.id);
		if (started.kind !== 'started') throw new Error(started.kind);
		const token = started.token;
		await world.db.session.update({
			where: { sessionToken: token },
			data: {
				status: 'template_chosen',
				templateId: 'knight',
				telegramUserId: BigInt(world.guestId),
				updatedAt: new Date().toISOString()
			}
		});

		const photo = await selfieJpeg();
		const request = new Request(`http://kiosk.test/api/kiosk/sessions/${token}/photo?locale=en`, {
			method: 'POST',
			headers: { 'content-type': 'image/jpeg' },
			body: new Uint8Array(photo)
		});
		const answer = await answerSelfieUpload({ app }, key, token, request);
		expect([answer.status, answer.status === 201 ? null : await answer.clone().text()]).toEqual([201, null]);
		const { jobId } = (await answer.json()) as { jobId: number };

		const job = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect(job.photoPath).toMatch(new RegExp(`^sessions/${token}/selfie_[0-9a-f]{16}\\.jpg$`));
		const uploaded = (await fileStore.list(`sessions/${token}/`)).map((f) => f.key).sort();
		expect(uploaded).toEqual([`sessions/${token}/face_crop.jpg`, job.photoPath].sort());
		expect((await sharp((await fileStore.get(job.photoPath))!).metadata()).format).toBe('jpeg');
		expect(existsSync(path.join(world.dataDir, 'sessions'))).toBe(false);

		// The worker opens the same bucket from the same settings (its own store, as main.ts opens one)
		// and draws from what the kiosk stored.
		await generation.startLoop(bucketEnv, await openFileStore(world.config(bucketEnv)));
		expect(await waitForJobStatus(world.db, jobId, ['done', 'failed'], 90_000)).toBe('done');
		const done = await world.db.job.findUniqueOrThrow({ where: { jobId } });
		expect((await world.emulator.control.getStickerSet(done.packName!))?.stickers).toHaveLength(12);

		const stickers = (await fileStore.list(`sessions/${token}/stickers/`)).map((f) => path.posix.basename(f.key));
		// Twelve pictures, and a clip beside each of the ones that move.
		const clips = animatedStickerNumbers(DEFAULT_ANIMATED_STICKERS).map((n) => `sticker_${n}.webm`);
		expect(stickers.sort()).toEqual([...Array.from({ length: 12 }, (_, i) => `sticker_${i + 1}.png`), ...clips].sort());
		expect(await fileStore.get(job.photoPath)).toBeNull(); // the selfie goes once the set exists
		expect(await fileStore.stat(`sessions/${token}/face_crop.jpg`)).not.toBeNull();
		expect((await fileStore.list(`debug_sheets/job${jobId}_`)).map((f) => f.key)).toContain(
			`debug_sheets/job${jobId}_consistency.json`
		);
		expect(existsSync(path.join(world.dataDir, 'sessions'))).toBe(false);
		expect(existsSync(path.join(world.dataDir, 'debug_sheets'))).toBe(false);

		// The console lists and serves them from the bucket; the selfie never was an artefact.
		const detail = await readJobDetail(world.db, fileStore, jobId);
		expect(detail?.stickers).toHaveLength(12);
		expect(detail?.consistency).not.toBeNull();
		const served = await readArtefact(fileStore, `sessions/${token}/stickers/sticker_1.png`);
		expect((await sharp(served!).metadata()).width).toBe(512);
		expect(await readArtefact(fileStore, `sessions/${token}/face_crop.jpg`)).toBeNull();

		await generation.stopLoop();
		await eraseGuest(
			{ db: world.db, clock: systemClock, fileStore, pseudonymKey: Buffer.alloc(32, 3) },
			BigInt(world.guestId),
			'forget'
		);
		expect(await fileStore.list(`sessions/${token}/`)).toEqual([]);
		expect(await fileStore.list(`debug_sheets/job${jobId}_`)).toEqual([]);
	}, 120_000);
});
