import { expect } from './product-stack.ts';
import { guestChoosesOutfit, jobsOfSession, kioskAtCamera, openKiosk, startAndReadToken, test } from './kiosk-steps.ts';

/**
 * A kiosk in a real venue: a guest who changes their mind, a tablet locked to the kiosk page, a
 * refused selfie, and Wi-Fi that drops the photo upload. The network faults are Playwright's
 * routes on the page's own requests: the server is real, only the connection is cut.
 */
let nextUser = 7_400_001 + Math.floor(Math.random() * 1000) * 10;

test('Cancel on the QR, Telegram and camera screens closes the session and shows Start at once', async ({
	page,
	product,
	control
}) => {
	test.setTimeout(90_000);
	await openKiosk(page, product);
	const session = (token: string) =>
		product.db.get(`SELECT status, closed_reason FROM sessions WHERE session_token = ?`, token);

	const onQr = await startAndReadToken(page, product);
	await page.getByRole('button', { name: 'Cancel' }).click();
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	await expect.poll(() => session(onQr)).toEqual({ status: 'expired', closed_reason: 'kiosk_cancel' });
	// The guest who scans the cancelled code late hears why in the bot.
	const late = nextUser++;
	await control.sendUserMessage({
		user: { id: late, first_name: 'Late', language_code: 'en' },
		text: `/start ${onQr}`
	});
	await control.waitForMessage(late, (m) => m.from_bot && /cancelled at the kiosk/.test(m.text ?? ''), {
		timeoutMs: 10_000
	});

	const inTelegram = await startAndReadToken(page, product);
	const guest = nextUser++;
	await control.sendUserMessage({
		user: { id: guest, first_name: 'Aziz', language_code: 'en' },
		text: `/start ${inTelegram}`
	});
	await expect(page.getByRole('heading', { name: 'Continue in Telegram' })).toBeVisible();
	await page.getByRole('button', { name: 'Cancel' }).click();
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	await expect.poll(() => session(inTelegram)).toEqual({ status: 'expired', closed_reason: 'kiosk_cancel' });

	const atCamera = await startAndReadToken(page, product);
	await guestChoosesOutfit(control, nextUser++, atCamera);
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	await page.getByRole('button', { name: 'Cancel' }).click();
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	await expect.poll(() => session(atCamera)).toEqual({ status: 'expired', closed_reason: 'kiosk_cancel' });
	const jobs = await product.db.get<{ n: number | string }>(
		`SELECT COUNT(*) AS n FROM jobs WHERE session_token IN (?, ?, ?)`,
		onQr,
		inTelegram,
		atCamera
	);
	expect(Number(jobs?.n)).toBe(0);
});

test('the QR screen offers no link to tap: the code is the only way to Telegram', async ({ page, product }) => {
	await openKiosk(page, product);
	await startAndReadToken(page, product);
	await expect(page.getByRole('link', { name: /t\.me/ })).toHaveCount(0);
	const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
	expect(hrefs.filter((href) => href.includes('t.me'))).toEqual([]);
});

test('a selfie without a face: the sentence and a picture of a good selfie stand above the buttons', async ({
	page,
	product,
	control
}) => {
	test.setTimeout(90_000);
	await kioskAtCamera(page, product, control, nextUser++);
	await page.getByRole('button', { name: 'Take photo' }).click();
	await page.getByRole('button', { name: 'Use this photo' }).click(); // the fake camera's test pattern has no face
	const alert = page.getByRole('alert');
	await expect(alert).toHaveText('We can’t see your face — look at the camera and try again.');
	await expect(page.getByText(/A good selfie: face in the middle/)).toBeVisible();
	const retake = page.getByRole('button', { name: 'Retake' });
	const [alertBox, retakeBox] = [await alert.boundingBox(), await retake.boundingBox()];
	expect(alertBox!.y + alertBox!.height).toBeLessThanOrEqual(retakeBox!.y);
});

test('a dropped upload is retried with a visible state; a photo whose answer was lost makes one job', async ({
	guestPage: page,
	product,
	control
}) => {
	test.setTimeout(120_000);
	const token = await kioskAtCamera(page, product, control, nextUser++);

	// 1st try: the Wi-Fi is down. 2nd try: the photo reaches the server but its answer is lost.
	// The kiosk moves on as soon as the server's live view says the photo is taken (or, if a 3rd
	// try goes first, on its already_taken); either way there is one job.
	let tries = 0;
	await page.route(`**/api/kiosk/sessions/${token}/photo**`, async (route) => {
		tries += 1;
		if (tries === 1) return route.abort('internetdisconnected');
		if (tries === 2) {
			const answer = await route.fetch();
			expect(answer.status()).toBe(201);
			return route.abort('connectionreset');
		}
		return route.continue();
	});
	await page.getByRole('button', { name: 'Take photo' }).click();
	await page.getByRole('button', { name: 'Use this photo' }).click();
	await expect(page.getByTestId('upload-retry')).toContainText(/No connection — trying again in \d+ s \(try [23]\)/);
	await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible({ timeout: 30_000 });
	expect(tries).toBeGreaterThanOrEqual(2);
	expect(await jobsOfSession(product, token)).toBe(1);
});

test('offline at the moment of the photo: the kiosk waits, and sends it by itself once the network is back', async ({
	guestPage: page,
	product,
	control
}) => {
	test.setTimeout(120_000);
	const token = await kioskAtCamera(page, product, control, nextUser++);
	await page.getByRole('button', { name: 'Take photo' }).click();
	await expect(page.getByRole('button', { name: 'Use this photo' })).toBeVisible();

	await page.context().setOffline(true);
	await page.getByRole('button', { name: 'Use this photo' }).click();
	await expect(page.getByTestId('upload-retry')).toContainText(/\(try 3\)/, { timeout: 20_000 });
	await expect(page.getByRole('button', { name: 'Try now' })).toBeVisible();
	const jobsOf = () => jobsOfSession(product, token);
	expect(await jobsOf()).toBe(0);

	await page.context().setOffline(false); // no staff action: the browser's online event sends it
	await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible({ timeout: 30_000 });
	expect(await jobsOf()).toBe(1);
});
