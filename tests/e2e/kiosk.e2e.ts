import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { untilAnswered } from '../helpers/until-answered.ts';
import { CLOSED_SCREEN_MS, READY_SCREEN_MS } from '../../src/lib/components/kiosk/screen-times.ts';
import { selfieJpeg } from '../integration/guest-photos.ts';
import { expect } from './product-stack.ts';
import {
	guestChoosesOutfit,
	holdQueue,
	jobsOfSession,
	kioskAtCamera,
	openKiosk,
	releaseQueue,
	sessionFiles,
	startAndReadToken,
	test
} from './kiosk-steps.ts';

let nextUser = 7_100_001 + Math.floor(Math.random() * 1000) * 10;

test('a guest goes from Start to a queued job: QR, Telegram, camera, upload, "Generating…", back to Start', async ({
	guestPage: page,
	product,
	control
}) => {
	test.setTimeout(120_000);
	// The page's clock runs as usual until the test jumps it over the "ready" screen's stay (below).
	await page.clock.install();
	await openKiosk(page, product);
	const token = await startAndReadToken(page, product);
	await expect(page.getByText(/Code valid for \d+ s/)).toBeVisible();

	const userId = nextUser++;
	await guestChoosesOutfit(control, userId, token);
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	await expect(page.getByText('Your outfit: 🚀 Astronaut')).toBeVisible();
	// Its picture as the catalogue publishes it (drawn in its colours: no preview uploaded), from the product's file store.
	await expect
		.poll(() => page.locator('p.outfit img').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
		.toBe(512);

	await page.getByRole('button', { name: 'Take photo' }).click();
	await page.getByRole('button', { name: 'Retake' }).click();
	await page.getByRole('button', { name: 'Take photo' }).click();
	// Hold the queue while we look at the stored selfie.
	await holdQueue(product);
	const upload = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/sessions/${token}/photo`));
	await page.getByRole('button', { name: 'Use this photo' }).click();
	const response = await upload;
	try {
		expect(response.status()).toBe(201);
		await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible();
		const job = await product.db.get(
			`SELECT status, attempts, photo_path, template_id, telegram_user_id FROM jobs WHERE session_token = ?`,
			token
		);
		expect(job).toMatchObject({ status: 'queued', attempts: 0, template_id: 'astronaut' });
		expect(Number(job?.telegram_user_id)).toBe(userId);
		const photoPath = String(job?.photo_path);
		expect(photoPath).toMatch(new RegExp(`sessions/${token}/selfie_[0-9a-f]+\\.jpg$`));
		const selfie = await product.files.get(product.files.keyOf(photoPath) ?? '');
		expect(selfie).not.toBeNull();
		const meta = await sharp(selfie!).metadata();
		expect([meta.format, meta.exif, meta.icc, meta.xmp]).toEqual(['jpeg', undefined, undefined, undefined]);
		expect(await sessionFiles(product, token)).toContain(`sessions/${token}/face_crop.jpg`);
		// On PostgreSQL + S3 the guest's files are in the bucket only: the job names a key, DATA_DIR holds none of them.
		if (product.engine === 'postgres-s3')
			expect([path.isAbsolute(photoPath), existsSync(path.join(product.dataDir, 'sessions'))]).toEqual([false, false]);
	} finally {
		await releaseQueue(product);
	}

	await expect(page.getByTestId('queue-position')).toContainText(/#\d+ in the queue|Drawing now/);

	await control.waitForMessage(userId, (m) => m.from_bot && /Generating your stickers/.test(m.text ?? ''), {
		timeoutMs: 10_000
	});
	// "Being drawn" waits for a pack due within a minute (else Start after 15 s), then "ready" stays for
	// READY_SCREEN_MS by the page's clock: jumped over, so Start comes back by the kiosk's own timer
	// without sitting through it (and still comes if the jump missed the screen).
	const start = page.getByRole('button', { name: 'Start', exact: true });
	const ready = page.getByRole('heading', { name: 'Your stickers are ready!' });
	await expect(start.or(ready)).toBeVisible({ timeout: 90_000 });
	if (await ready.isVisible()) await page.clock.fastForward(READY_SCREEN_MS);
	await expect(start).toBeVisible({ timeout: READY_SCREEN_MS + 5_000 });
});

test('the "being drawn" screen shows the place and estimate of the guest\'s status message; the message is edited, never sent again', async ({
	guestPage: page,
	product,
	control
}) => {
	test.setTimeout(120_000);
	const userId = nextUser++;
	await kioskAtCamera(page, product, control, userId);
	await page.getByRole('button', { name: 'Take photo' }).click();
	// The queue is held, so the job waits with a place in the queue while both screens are read.
	await holdQueue(product);
	const PLACE = /#(\d+) in the queue[—,\s]+about ([^.]+)\./;
	let statusId = 0;
	try {
		await page.getByRole('button', { name: 'Use this photo' }).click();
		await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible();
		const status = await control.waitForMessage(userId, (m) => m.from_bot && PLACE.test(m.text ?? ''), {
			timeoutMs: 10_000
		});
		statusId = status.message_id;
		const [, place, eta] = PLACE.exec(status.text ?? '')!;
		await expect(page.getByTestId('queue-position')).toHaveText(`You are #${place} in the queue — about ${eta}.`);
	} finally {
		await releaseQueue(product);
	}
	// Drawing starts: the same message is edited (the place, then the stages); no second status message appears.
	await expect
		.poll(async () => (await control.chatMessages(userId)).find((m) => m.message_id === statusId)?.edited, {
			timeout: 30_000
		})
		.toBe(true);
	const others = (await control.chatMessages(userId)).filter(
		(m) => m.from_bot && m.message_id !== statusId && /Generating your stickers|in the queue/.test(m.text ?? '')
	);
	expect(others).toEqual([]);
});

test('a reload with a session open closes it as kiosk_reset; a camera failure closes it as camera_error', async ({
	page,
	product,
	control
}) => {
	// The page's clock runs as usual until the test jumps it over the closed screen's stay (below).
	await page.clock.install();
	await openKiosk(page, product);
	const first = await startAndReadToken(page, product);
	await page.reload();
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	const closed = await product.db.get(`SELECT status, closed_reason FROM sessions WHERE session_token = ?`, first);
	expect(closed).toEqual({ status: 'expired', closed_reason: 'kiosk_reset' });
	const userId = nextUser++;
	await control.sendUserMessage({
		user: { id: userId, first_name: 'Late', language_code: 'en' },
		text: `/start ${first}`
	});
	await control.waitForMessage(userId, (m) => m.from_bot && /kiosk was restarted/.test(m.text ?? ''), {
		timeoutMs: 10_000
	});

	const second = await startAndReadToken(page, product);
	const answer = await page.evaluate(
		async (t) =>
			(
				await fetch(`/api/kiosk/sessions/${t}/close`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ reason: 'camera_error' })
				})
			).status,
		second
	);
	expect(answer).toBe(200);
	await expect(page.getByTestId('closed-reason')).toHaveText('The camera is not working. Please call the staff.');
	// Its one button says where it leads; the screen also returns to Start by itself.
	await expect(page.getByRole('button', { name: 'Back to Start', exact: true })).toBeVisible();
	await page.clock.fastForward(CLOSED_SCREEN_MS);
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible({ timeout: 15_000 });
});

test('the upload endpoint refuses what is not a usable photo with the right status, and keeps nothing', async ({
	page,
	baseURL,
	product,
	control
}) => {
	test.setTimeout(90_000);
	await openKiosk(page, product);
	const token = await startAndReadToken(page, product);
	const post = (body: Buffer) =>
		page.request.post(`/api/kiosk/sessions/${token}/photo`, {
			headers: { origin: baseURL!, 'content-type': 'image/jpeg' },
			data: body
		});
	const early = await post(
		await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
			.jpeg()
			.toBuffer()
	);
	expect([early.status(), (await early.json()).error]).toEqual([409, 'not_ready']);

	await guestChoosesOutfit(control, nextUser++, token);
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	const jpeg = await selfieJpeg(800, 600);
	const bomb = await sharp({ create: { width: 14000, height: 14000, channels: 3, background: '#000' } })
		.png({ compressionLevel: 9 })
		.toBuffer();
	const cases: [string, Buffer, number, string][] = [
		['16 MB', Buffer.concat([jpeg, Buffer.alloc(16 * 1024 * 1024)]), 413, 'too_large'],
		['text named .jpg', Buffer.from('hello, I am not a photo\n'.repeat(50)), 415, 'not_an_image'],
		[
			'SVG',
			Buffer.from(
				'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
			),
			415,
			'not_an_image'
		],
		['truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 422, 'damaged_image'],
		['14000×14000 PNG', bomb, 422, 'too_many_pixels']
	];
	for (const [label, body, status, error] of cases) {
		const answer = await untilAnswered(() => post(body));
		expect([label, answer.status(), (await answer.json()).error]).toEqual([label, status, error]);
	}
	expect(await sessionFiles(product, token)).toEqual([]);
	const good = await post(jpeg);
	expect(good.status()).toBe(201);
	const again = await post(jpeg);
	expect([again.status(), (await again.json()).error]).toEqual([409, 'already_taken']);
	expect(await jobsOfSession(product, token)).toBe(1);
});

test('a photo without a face is refused on the kiosk with the retake sentence; the session stays open for the next photo', async ({
	page,
	baseURL,
	product,
	control
}) => {
	test.setTimeout(90_000);
	const token = await kioskAtCamera(page, product, control, nextUser++);

	// The fake camera's test pattern has no face in it.
	await page.getByRole('button', { name: 'Take photo' }).click();
	const upload = page.waitForResponse((r) => r.url().includes(`/sessions/${token}/photo`));
	await page.getByRole('button', { name: 'Use this photo' }).click();
	const response = await upload;
	expect([response.status(), (await response.json()).error]).toEqual([422, 'no_face']);
	await expect(page.getByRole('alert')).toHaveText('We can’t see your face — look at the camera and try again.');
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	const session = () => product.db.get(`SELECT status, closed_reason FROM sessions WHERE session_token = ?`, token);
	expect(await session()).toEqual({ status: 'template_chosen', closed_reason: null });
	expect(await sessionFiles(product, token)).toEqual([]);

	// Retake: countdown and preview again, the sentence gone while the guest poses.
	await page.getByRole('button', { name: 'Retake' }).click();
	await expect(page.getByRole('alert')).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Use this photo' })).toBeVisible();
	// A photo with a face is still taken for this session, and the kiosk moves on by itself.
	const good = await page.request.post(`/api/kiosk/sessions/${token}/photo`, {
		headers: { origin: baseURL!, 'content-type': 'image/jpeg' },
		data: await selfieJpeg(800, 600)
	});
	expect(good.status()).toBe(201);
	await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible();
	expect(await session()).toEqual({ status: 'photo_taken', closed_reason: null });
});
