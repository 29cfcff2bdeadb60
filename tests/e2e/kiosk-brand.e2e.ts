import { createHash } from 'node:crypto';
import type { Page, TestInfo } from '@playwright/test';
import { READY_SCREEN_MS } from '../../src/lib/components/kiosk/screen-times.ts';
import { signInOwnOperator } from './console-operator.ts';
import { expect } from './product-stack.ts';
import { guestChoosesOutfit, holdQueue, openKiosk, releaseQueue, startAndReadToken, test } from './kiosk-steps.ts';
import { expectToast } from './toasts.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * What guests see of the kiosk beyond the flow itself (docs/kiosk.md, "The Start screen" and
 * "Your pack is ready"): the event's name, colours and outfit pictures on Start; their own
 * stickers when the link is sent while they still look at the kiosk; and the staff panel's
 * errors kept in the panel. Screenshots at 1366 and 390 px wide are attached to the report.
 */
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
let nextUser = 7_600_001 + Math.floor(Math.random() * 1000) * 10;

async function attachScreens(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	for (const [width, height] of [
		[1366, 768],
		[390, 844]
	] as const) {
		await page.setViewportSize({ width, height });
		const file = testInfo.outputPath(`${name}-${width}.png`);
		await page.screenshot({ path: file });
		await testInfo.attach(`${name}-${width}`, { path: file, contentType: 'image/png' });
	}
	await page.setViewportSize({ width: 1366, height: 768 });
}

const css = (page: Page, selector: string, property: string) =>
	page
		.locator(selector)
		.first()
		.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

test('Start shows the live event’s name, colours (readable ink chosen for them) and outfit pictures; staff errors stay in the panel', async ({
	page: kiosk,
	browser,
	product
}, testInfo) => {
	test.skip(product.engine !== 'sqlite', 'the console sign-in helper writes the SQLite product');
	test.setTimeout(180_000);
	const eventName = `Brand gala ${run}`;
	const key = await product.registerKiosk();
	const kioskName = String(
		(await product.db.get(
			`SELECT name FROM kiosks WHERE key_hash = ?`,
			createHash('sha256').update(key).digest('hex')
		))!.name
	);

	const consolePage = await browser.newPage();
	await signInOwnOperator(consolePage, {
		username: `brand-${run}`,
		password: 'brand-e2e-password-1',
		setupToken: `brand-setup-${run}`,
		role: 'operator'
	});
	await openConsolePage(consolePage, '/console/events');
	await expect(consolePage.getByRole('link', { name: 'Default event' })).toBeVisible();
	await consolePage.getByLabel('Name').fill(eventName);
	await consolePage.getByLabel('Sticker-set title').fill('{event}');
	await consolePage.getByRole('button', { name: 'Create event' }).click();
	await expect(consolePage.getByRole('heading', { level: 1, name: new RegExp(eventName) })).toBeVisible();

	// An accent the Start button would melt into is refused with a sentence; the form keeps what was typed.
	const primary = consolePage.getByLabel(/Kiosk primary colour/);
	const accent = consolePage.getByLabel(/Kiosk accent colour/);
	await primary.fill('#1d1b4b');
	await accent.fill('#2a2860');
	await consolePage.getByRole('button', { name: 'Save event' }).click();
	await expect(consolePage.getByRole('alert')).toHaveText(
		/^The accent colour #2a2860 is too close to the primary colour #1d1b4b \(contrast 1\.\d:1, at least 3:1 is needed\)/
	);
	// A light primary and a deep red accent: the form says which ink each gets.
	await primary.fill('#FFF3E0');
	await accent.fill('#c62828');
	await expect(consolePage.locator('#primary-ink')).toHaveText(/^Text on it: black \(contrast \d+\.\d:1\)\.$/);
	await expect(consolePage.locator('#accent-ink')).toHaveText(/^Text on it: white \(contrast \d+\.\d:1\)\.$/);
	await consolePage.getByRole('button', { name: 'Save event' }).click();
	await expectToast(consolePage, 'Event saved.');
	await expect(primary).toHaveValue('#fff3e0');
	await consolePage.getByRole('checkbox', { name: kioskName }).check();
	await consolePage.getByRole('button', { name: 'Save kiosks' }).click();
	await expectToast(consolePage, 'Kiosks saved.');
	await consolePage.getByRole('button', { name: 'Publish saved draft' }).click();
	await expectToast(consolePage, /^Published/);
	await consolePage.getByRole('button', { name: 'Start event' }).click();
	await expectToast(consolePage, 'The event is live.');

	try {
		await kiosk.setViewportSize({ width: 1366, height: 768 });
		await kiosk.goto('/kiosk');
		await kiosk.getByLabel('Kiosk key').fill(key);
		await kiosk.getByRole('button', { name: 'Save' }).click();
		await expect(kiosk.getByTestId('event-name')).toHaveText(eventName);
		// The event's colours, as the browser computed them: flat primary, black ink on it, the red Start with white ink.
		await expect.poll(() => css(kiosk, 'main.kiosk', 'background-color')).toBe('rgb(255, 243, 224)');
		expect(await css(kiosk, '#start-title', 'color')).toBe('rgb(0, 0, 0)');
		const start = kiosk.getByRole('button', { name: 'Start', exact: true });
		expect(await start.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(198, 40, 40)');
		expect(await start.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
		// Six of the event's outfits as pictures (not guests' stickers), each one loaded.
		const sample = kiosk.getByRole('list', { name: 'Outfits to choose from' }).getByRole('img');
		await expect(sample).toHaveCount(6);
		await expect(sample.first()).toHaveAccessibleName('🚀 Astronaut');
		await expect
			.poll(() => sample.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
			.toBe(6);
		await attachScreens(kiosk, testInfo, 'start-branded');

		// A wrong (or unset) staff PIN is said in the staff panel only; closing it leaves Start clean.
		await kiosk.getByRole('button', { name: 'Staff' }).click();
		await kiosk.getByLabel('Staff PIN').fill('0000');
		await kiosk.getByRole('button', { name: 'Reset kiosk' }).click();
		const panel = kiosk.getByRole('dialog', { name: 'Staff reset' });
		await expect(panel.getByRole('alert')).toHaveText(/Wrong PIN\.|No staff PIN is set up for this kiosk\./);
		await expect(kiosk.getByRole('region', { name: /Your own sticker pack/ }).getByRole('alert')).toHaveCount(0);
		await panel.getByRole('button', { name: 'Close' }).click();
		await expect(start).toBeVisible();
		await expect(kiosk.getByRole('alert')).toHaveCount(0);
		// Opened again, the panel starts clean too.
		await kiosk.getByRole('button', { name: 'Staff' }).click();
		await expect(panel.getByRole('alert')).toHaveCount(0);
		await panel.getByRole('button', { name: 'Close' }).click();

		// A pause shows "Temporarily unavailable" in the event's colours, and Start comes back with them.
		await holdQueue(product);
		try {
			await expect(kiosk.getByRole('heading', { name: 'Temporarily unavailable' })).toBeVisible();
			expect(await css(kiosk, 'main.kiosk', 'background-color')).toBe('rgb(255, 243, 224)');
			expect(await css(kiosk, '#paused-title', 'color')).toBe('rgb(0, 0, 0)');
		} finally {
			await releaseQueue(product);
		}
		await expect(start).toBeVisible();
		await expect(kiosk.getByTestId('event-name')).toHaveText(eventName);
	} finally {
		await consolePage.getByRole('button', { name: 'End event' }).click();
		await consolePage.getByRole('button', { name: 'Yes, end it (queued packs still finish)' }).click();
		await expectToast(consolePage, /^The event has ended\./);
	}
	// The event over, the kiosk serves no event: the plain Start, no name, its own colours.
	await kiosk.reload();
	await expect(kiosk.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	await expect(kiosk.getByTestId('event-name')).toHaveCount(0);
	await expect.poll(() => css(kiosk, 'main.kiosk', 'background-color')).not.toBe('rgb(255, 243, 224)');
});

test('the link is sent while the guest still looks at the kiosk: their 12 stickers, then back to Start', async ({
	guestPage: page,
	product,
	control
}, testInfo) => {
	test.setTimeout(180_000);
	// This product's packs take about 30 s from photo to link (one delivered pack says so): the
	// "being drawn" screen then waits for the pack (50 s, docs/kiosk.md) instead of leaving after 15 s.
	const linked = new Date();
	await product.db.run(
		`INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, created_at, updated_at, link_sent_at) VALUES (?, ?, ?, 'chef', 'done', ?, ?, ?)`,
		nextUser++,
		`history-${run}`.padEnd(32, 'h'),
		'sessions/history/selfie.jpg',
		new Date(linked.getTime() - 30_000).toISOString(),
		linked.toISOString(),
		linked.toISOString()
	);
	await page.setViewportSize({ width: 1366, height: 768 });
	// The page's clock runs as usual until the test jumps it over the "ready" screen's stay (below).
	await page.clock.install();
	await openKiosk(page, product);
	// No event: the kiosk's own colours, no name, the default event's outfits (each loaded before the picture).
	await expect(page.getByTestId('event-name')).toHaveCount(0);
	const sample = page.getByRole('list', { name: 'Outfits to choose from' }).getByRole('img');
	await expect
		.poll(() => sample.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
		.toBe(6);
	await attachScreens(page, testInfo, 'start-default');
	const token = await startAndReadToken(page, product);
	const userId = nextUser++;
	await guestChoosesOutfit(control, userId, token);
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	await page.getByRole('button', { name: 'Take photo' }).click();
	await page.getByRole('button', { name: 'Use this photo' }).click();
	await expect(page.getByRole('heading', { name: 'Your stickers are being drawn!' })).toBeVisible();

	// The offline provider draws in seconds: the link is sent while "being drawn" is still up.
	await expect(page.getByRole('heading', { name: 'Your stickers are ready!' })).toBeVisible({ timeout: 60_000 });
	await expect(page.getByText('Check Telegram — the link to your pack is waiting there.')).toBeVisible();
	// Nine pictures and three clips (three of the twelve move by default), each named and loaded.
	const ready = page.getByTestId('ready-stickers');
	const stills = ready.getByRole('img');
	const clips = ready.locator('video');
	await expect(stills).toHaveCount(9);
	await expect(clips).toHaveCount(3);
	await expect(clips.first()).toHaveAccessibleName('Sticker 1');
	await expect
		.poll(() => stills.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length))
		.toBe(9);
	// The clips play: loaded, looping, muted, not paused.
	await expect
		.poll(() =>
			clips.evaluateAll(
				(videos) =>
					(videos as HTMLVideoElement[]).filter((v) => v.readyState >= 2 && !v.paused && v.loop && v.muted).length
			)
		)
		.toBe(3);
	const link = await control.waitForMessage(userId, (m) => m.from_bot && /t\.me\/addstickers\//.test(m.text ?? ''), {
		timeoutMs: 10_000
	});
	expect(link).toBeTruthy();
	await attachScreens(page, testInfo, 'ready');
	await expect(page.getByText(/Back to start in \d+ s/)).toBeVisible();
	await page.clock.fastForward(READY_SCREEN_MS);

	// Then Start by itself; the stickers are no longer served to anyone, this kiosk included, once it starts the next guest.
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible({ timeout: 25_000 });
	const next = await startAndReadToken(page, product);
	expect(next).not.toBe(token);
	const after = await page.evaluate(async (t) => (await fetch(`/api/kiosk/sessions/${t}/stickers`)).status, token);
	expect(after).toBe(404);
});
