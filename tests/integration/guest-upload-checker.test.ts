import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kioskErrorText } from '../../src/lib/i18n/kiosk.ts';
import type { Locale } from '../../src/lib/i18n/locale.ts';
import { answerSelfieUpload } from '../../src/lib/server/kiosk/photo-upload-route.ts';
import { UPLOAD_LIMIT } from '../../src/lib/server/kiosk/kiosk-http.ts';
import { createLogger } from '../../src/lib/server/log/logger.ts';
import { CHECK_TIMEOUT_MS, ChildUploadChecker } from '../../src/lib/server/media/upload-checker/child-checker.ts';
import { resolveCheckerEntry } from '../../src/lib/server/media/upload-checker/checker-process.ts';
import { ManualSchedule } from '../helpers/manual-schedule.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { eventually, sessionRow, startGuestWorld, startSession, type GuestWorld } from './guest-harness.ts';
import { selfieJpeg } from './guest-photos.ts';

/**
 * The upload endpoint when the upload checker process fails under it: that one upload gets a 503
 * with the kiosk's general "try again" sentence in its language, nothing is stored, the session
 * stays open, and the retake is checked by a fresh checker process.
 */
describe('an upload whose checker process fails', () => {
	const tempDir = useTempDir('guest-checker-');
	let world: GuestWorld;
	let checker: ChildUploadChecker | undefined;
	afterEach(async () => {
		await checker?.stop();
		await world?.close();
	});

	const uploadLimit = { ...UPLOAD_LIMIT, capacity: 1000, refillPerSecond: 100 };

	async function post(
		token: string,
		photo: Buffer,
		locale: Locale,
		logs: Record<string, unknown>[]
	): Promise<{ status: number; body: Record<string, unknown> }> {
		const logger = createLogger('web', 'info', {
			stdout: { write: (line: string) => void logs.push(JSON.parse(line)) }
		});
		const app = {
			config: world.config,
			db: world.db,
			clock: world.clock,
			logger,
			version: 'test',
			fileStore: world.fileStore,
			runtime: world.runtime
		};
		const request = new Request(`http://kiosk.test/api/kiosk/sessions/${token}/photo?locale=${locale}`, {
			method: 'POST',
			headers: { 'content-type': 'image/jpeg' },
			body: new Uint8Array(photo)
		});
		const response = await answerSelfieUpload(
			{ app, uploadLimit, uploadChecker: checker },
			world.kioskKey,
			token,
			request
		);
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	}

	it('a checker killed mid-check: 503 in the kiosk’s language, the session still open, the retake taken by a new checker', async () => {
		world = await startGuestWorld(tempDir());
		const token = await startSession(world);
		const now = world.clock.now().toISOString();
		await world.db.user.create({ data: { telegramUserId: 42n, createdAt: now } });
		await world.db.session.update({
			where: { sessionToken: token },
			data: { status: 'template_chosen', templateId: 'knight', telegramUserId: 42n, updatedAt: now }
		});
		const schedule = new ManualSchedule();
		checker = new ChildUploadChecker({
			entry: resolveCheckerEntry(PROJECT_ROOT),
			logger: createLogger('web', 'silent'),
			schedule: schedule.schedule
		});
		const photo = await selfieJpeg();
		expect((await checker.check(photo)).kind).toBe('passed');
		const first = checker.pid!;

		const logs: Record<string, unknown>[] = [];
		process.kill(first, 'SIGSTOP');
		const answer = post(token, photo, 'ru', logs);
		// The photo is with the (stopped) child once its answer is being waited for.
		await eventually(
			async () => schedule.pending(CHECK_TIMEOUT_MS),
			(n) => n === 1
		);
		process.kill(first, 'SIGKILL');
		const failed = await answer;
		expect([failed.status, failed.body.error, failed.body.sentence]).toEqual([
			503,
			'photo_check_failed',
			kioskErrorText('ru', 'other')
		]);
		expect(failed.body.sentence).toBe('Что-то пошло не так. Попробуйте ещё раз.');
		expect(logs.find((l) => l.msg === 'selfie upload failed: the photo could not be checked')).toMatchObject({
			level: 50,
			reason: 'crashed'
		});
		expect(await sessionRow(world, token)).toMatchObject({ status: 'template_chosen', closedReason: null });
		expect(existsSync(path.join(world.dir, 'sessions', token))).toBe(false);
		expect(await world.db.job.count()).toBe(0);

		const retake = await post(token, photo, 'ru', logs);
		expect(retake.status).toBe(201);
		expect(checker.pid).not.toBe(first);
		expect((await sessionRow(world, token)).status).toBe('photo_taken');
	}, 60_000);
});
