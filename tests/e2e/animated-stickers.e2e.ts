import { expect, test, type Page } from '@playwright/test';
import { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { E2E_EMULATOR_PORT } from '../../playwright.config.ts';
import { selfieJpeg } from '../integration/guest-photos.ts';
import { guestOpensCatalogue, tapStartForToken } from './kiosk-steps.ts';
import { registerE2eKiosk, signInOwnOperator, withE2eDb } from './console-operator.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * Issue #28, end to end: a guest of the default event (3 moving stickers) gets one set of 9 still
 * and 3 video stickers (WEBM files beside the PNGs), and the console's job page plays the three
 * clips. The operator's event form refuses a count outside 0–12 with its sentence. Needs an
 * emulator that takes `format: 'video'` stickers as the Bot API does.
 */
const control = createControlClient(`http://127.0.0.1:${E2E_EMULATOR_PORT}`);
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const kioskName = `e2e-anim-${run}`;
const operator = {
	username: `anim-${run}`,
	password: 'anim-e2e-password-1',
	setupToken: `anim-setup-${run}`,
	role: 'operator' as const
};
test.use({ actionTimeout: 20_000 });
const guestId = 7_500_001 + Math.floor(Math.random() * 1000) * 10;
/** WEBM (Matroska EBML) files start with these four bytes; PNGs with \x89PNG. */
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** Kiosk → QR → the guest consents and picks the first outfit → the photo is uploaded: the session token. */
async function guestQueuesPack(kiosk: Page): Promise<string> {
	const token = await tapStartForToken(kiosk);
	const catalogue = await guestOpensCatalogue(control, guestId, token, 'Aziz');
	const outfit = catalogue.buttons.flat().find((b) => b.callback_data?.startsWith('go:'))!;
	await control.pressButton({
		user_id: guestId,
		message_id: catalogue.message_id,
		callback_data: outfit.callback_data!
	});
	await expect(kiosk.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	const photo = await kiosk.request.post(`/api/kiosk/sessions/${token}/photo`, {
		headers: { origin: new URL(kiosk.url()).origin, 'content-type': 'image/jpeg' },
		data: await selfieJpeg(800, 600)
	});
	expect(photo.status()).toBe(201);
	return token;
}

test('a guest gets 9 still and 3 moving stickers in one set; the console plays the moving ones', async ({
	page: console,
	browser
}) => {
	test.setTimeout(300_000);
	const kioskKey = await registerE2eKiosk(kioskName);
	await signInOwnOperator(console, operator);

	// The event form says what a count outside 0–12 is, and keeps the default event's 3.
	await openConsolePage(console, '/console/events');
	await console.getByRole('link', { name: 'Default event' }).click();
	const count = console.getByLabel(/Moving stickers/);
	await expect(count).toHaveValue('3');
	await count.fill('13');
	await console.getByRole('button', { name: 'Save event' }).click();
	await expect(console.getByRole('alert')).toHaveText('The number of moving stickers is a whole number from 0 to 12.');

	const kiosk = await browser.newPage();
	await kiosk.goto('/kiosk');
	await kiosk.getByLabel('Kiosk key').fill(kioskKey);
	await kiosk.getByRole('button', { name: 'Save' }).click();
	const token = await guestQueuesPack(kiosk);
	await kiosk.close();

	const job = () =>
		withE2eDb((db) =>
			db.prepare(`SELECT job_id AS jobId, status, pack_name AS packName FROM jobs WHERE session_token = ?`).get(token)
		) as { jobId: number; status: string; packName: string | null };
	await expect.poll(() => job().status, { timeout: 180_000, intervals: [1000] }).toBe('done');
	// The console plays the clips the worker made (checked before the set: it needs no video-capable emulator).
	await openConsolePage(console, `/console/jobs/${job().jobId}`);
	const clips = console.getByRole('region', { name: /^Stickers/ }).locator('video');
	await expect(clips).toHaveCount(3);
	await expect(console.getByLabel('Sticker 1, moving')).toBeVisible();
	// Playing, looped and silent, as Telegram shows it.
	await expect
		.poll(() => clips.first().evaluate((v: HTMLVideoElement) => v.muted && v.loop && v.readyState >= 2))
		.toBe(true);

	const set = await control.getStickerSet(job().packName!);
	expect(set?.stickers).toHaveLength(12);
	const kinds = await Promise.all(
		set!.stickers.map(async (s) => ((await control.fileBytes(s.url)).subarray(0, 4).equals(EBML) ? 'video' : 'still'))
	);
	// hello (1), love (4) and party (8) move; the other nine are still.
	expect(kinds.map((k, i) => (k === 'video' ? i + 1 : 0)).filter(Boolean)).toEqual([1, 4, 8]);
});
