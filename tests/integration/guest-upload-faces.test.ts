import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { kioskErrorText } from '../../src/lib/i18n/kiosk.ts';
import type { Locale } from '../../src/lib/i18n/locale.ts';
import { answerSelfieUpload } from '../../src/lib/server/kiosk/photo-upload-route.ts';
import { UPLOAD_LIMIT } from '../../src/lib/server/kiosk/kiosk-http.ts';
import { silentLogger } from '../../src/lib/server/log/logger.ts';
import { getFaceDetector, type FaceBox } from '../../src/lib/server/media/face-detector.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { sessionRow, startGuestWorld, startSession, type GuestWorld } from './guest-harness.ts';
import { photosWithoutUsableFace, photoWithFaces, selfieJpeg } from './guest-photos.ts';

/**
 * The face check at upload, through the upload endpoint (kiosk key, token, rate limit, body,
 * answer): a photo without exactly one usable face is refused with 422 and a sentence in the
 * kiosk's language, nothing is stored, the session stays open and the guest's retake is taken.
 */
describe('the face check at upload', () => {
	const tempDir = useTempDir('guest-faces-');
	let world: GuestWorld;
	afterEach(async () => world?.close());

	async function readySession(userId = 42n): Promise<string> {
		const token = await startSession(world);
		const now = world.clock.now().toISOString();
		await world.db.user.create({ data: { telegramUserId: userId, createdAt: now } });
		await world.db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', templateId: 'knight', telegramUserId: userId, updatedAt: now }
		});
		return token;
	}

	// Its own bucket, so this file's many uploads from one kiosk are not rate-limited.
	const uploadLimit = { ...UPLOAD_LIMIT, capacity: 1000, refillPerSecond: 100 };
	async function post(
		token: string,
		photo: Buffer,
		locale: Locale = 'en'
	): Promise<{ status: number; body: Record<string, unknown> }> {
		const app = {
			config: world.config,
			db: world.db,
			clock: world.clock,
			logger: silentLogger,
			version: 'test',
			fileStore: world.fileStore,
			runtime: world.runtime
		};
		const request = new Request(`http://kiosk.test/api/kiosk/sessions/${token}/photo?locale=${locale}`, {
			method: 'POST',
			headers: { 'content-type': 'image/jpeg', 'content-length': String(photo.length) },
			body: new Uint8Array(photo)
		});
		const response = await answerSelfieUpload({ app, uploadLimit }, world.kioskKey, token, request);
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	}

	it('refuses a faceless, two-face, tiny-face and cut-off photo with a sentence; the session stays open and the retake is taken', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		const refusals = await photosWithoutUsableFace();
		const locales: Locale[] = ['en', 'ru', 'uz'];
		for (const [i, { label, photo, problem }] of refusals.entries()) {
			const locale = locales[i % locales.length]!;
			const answer = await post(token, photo, locale);
			expect([label, answer.status, answer.body.error, answer.body.sentence]).toEqual([
				label,
				422,
				problem,
				kioskErrorText(locale, problem)
			]);
			const session = await sessionRow(world, token);
			expect([label, session.status, session.closedReason]).toEqual([label, 'template_chosen', null]);
		}
		expect(existsSync(path.join(world.dir, 'sessions', token))).toBe(false);
		expect(await world.db.job.count()).toBe(0);

		const retake = await post(token, await selfieJpeg());
		expect(retake.status).toBe(201);
		expect((await sessionRow(world, token)).status).toBe('photo_taken');
		expect(await world.db.job.count({ where: { sessionToken: token, status: 'queued' } })).toBe(1);
	});

	it('says each problem in words a guest understands, in the kiosk’s language', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		const [flat] = await photosWithoutUsableFace();
		expect((await post(token, flat!.photo, 'en')).body.sentence).toBe(
			'We can’t see your face — look at the camera and try again.'
		);
		expect((await post(token, flat!.photo, 'ru')).body.sentence).toBe(
			'Мы не видим вашего лица — посмотрите в камеру и попробуйте ещё раз.'
		);
		expect((await post(token, flat!.photo, 'uz')).body.sentence).toBe(
			'Yuzingiz ko‘rinmayapti — kameraga qarang va qayta urinib ko‘ring.'
		);
		const sentences = ['no_face', 'several_faces', 'face_too_small', 'face_cut_off'].map((problem) =>
			kioskErrorText('en', problem)
		);
		expect(new Set(sentences).size).toBe(4);
		expect(sentences).not.toContain(kioskErrorText('en', 'other'));
	});

	it('a good photo is taken (201) and face_crop.jpg is the face with room around it, centred on it', async () => {
		world = await startGuestWorld(tempDir());
		const token = await readySession();
		// The face low and to the left: a fixed square in the upper middle would miss its centre.
		const photo = await photoWithFaces(1280, 960, [{ side: 420, cx: 400, cy: 560 }]);
		const answer = await post(token, photo);
		expect([answer.status, typeof answer.body.jobId]).toEqual([201, 'number']);
		const dir = path.join(world.dir, 'sessions', token);
		const job = await world.db.job.findFirstOrThrow({ where: { sessionToken: token } });
		expect(readdirSync(dir).sort()).toEqual(['face_crop.jpg', path.basename(job.photoPath)].sort());

		const detector = await getFaceDetector();
		const crop = await readFile(path.join(dir, 'face_crop.jpg'));
		const cropMeta = await sharp(crop).metadata();
		expect(cropMeta.width).toBe(cropMeta.height);
		const [face, ...others] = await detector.findFaces(crop);
		expect(others).toEqual([]);
		const side = cropMeta.width!;
		const [cx, cy] = centre(face!);
		expect(Math.abs(cx - side / 2)).toBeLessThan(side * 0.05);
		expect(Math.abs(cy - side / 2)).toBeLessThan(side * 0.05);
		// Room around the face (two face widths), but the face still fills a good part of the crop.
		expect(face!.width / side).toBeGreaterThan(0.4);
		expect(face!.width / side).toBeLessThan(0.65);
		expect(face!.x).toBeGreaterThan(0);
		expect(face!.y + face!.height).toBeLessThan(side);
	});
});

function centre(face: FaceBox): [number, number] {
	return [face.x + face.width / 2, face.y + face.height / 2];
}
