import path from 'node:path';
import type { Page } from '@playwright/test';
import { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { writeGuestCameraFeed } from './fake-camera.ts';
import { expect, test as base, type ProductStack } from './product-stack.ts';

/**
 * The kiosk specs' world and steps (kiosk.e2e.ts, kiosk-venue.e2e.ts). The guest flow as people
 * live it: Chromium with a fake camera on /kiosk, the emulated guest in Telegram (the emulator
 * started by the product), the real worker and web processes. The fake
 * camera shows Chromium's test pattern, with no face in it (the upload's face check refuses it);
 * `guestPage` is a page of a browser of its own whose camera shows a guest. Runs in both projects:
 * on SQLite with the files under DATA_DIR, and on PostgreSQL + S3 (`product` says which).
 */
export const test = base.extend<{ guestPage: Page; control: ReturnType<typeof createControlClient> }>({
	control: async ({ product }, use) => use(createControlClient(product.emulatorUrl)),
	guestPage: async ({ playwright, launchOptions, baseURL }, use, testInfo) => {
		// A folder per worker: the two projects' workers run side by side, and one rewriting the file
		// while the other's Chromium loops over it could show that camera a torn frame.
		const feed = await writeGuestCameraFeed(path.resolve('.tmp/fake-camera', `worker-${testInfo.parallelIndex}`));
		const browser = await playwright.chromium.launch({
			...launchOptions,
			args: [...(launchOptions.args ?? []), `--use-file-for-fake-video-capture=${feed}`]
		});
		const context = await browser.newContext({ baseURL });
		await use(await context.newPage());
		await browser.close();
	}
});

/** The generation worker does not claim during a pause: the job waits while the test looks at it. */
export async function holdQueue(product: ProductStack): Promise<void> {
	const value = JSON.stringify({ source: 'admin', reason: 'e2e hold', at: new Date().toISOString() });
	await product.db.run(
		`INSERT INTO settings (key, value, updated_at) VALUES ('maintenance', ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		value,
		new Date().toISOString()
	);
}

export async function releaseQueue(product: ProductStack): Promise<void> {
	await product.db.run(`DELETE FROM settings WHERE key = 'maintenance'`);
}

export async function sessionFiles(product: ProductStack, token: string): Promise<string[]> {
	return (await product.files.list(`sessions/${token}/`)).map((file) => file.key);
}

export async function openKiosk(page: Page, product: ProductStack): Promise<void> {
	await page.goto('/kiosk');
	await page.getByLabel('Kiosk key').fill(await product.registerKiosk());
	await page.getByRole('button', { name: 'Save' }).click();
	await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
}

/** Start on a kiosk already paired, then the QR screen: the session token its deep link carries. */
export async function tapStartForToken(kiosk: Page): Promise<string> {
	await kiosk.getByRole('button', { name: 'Start', exact: true }).click({ timeout: 30_000 });
	await expect(kiosk.getByRole('heading', { name: 'Scan with your phone' })).toBeVisible({ timeout: 20_000 });
	const link = await kiosk.getByTestId('qr-code').getAttribute('data-deep-link');
	return /\?start=([A-Za-z0-9_-]+)$/.exec(link ?? '')![1]!;
}

export async function startAndReadToken(page: Page, product: ProductStack): Promise<string> {
	await page.getByRole('button', { name: 'Start', exact: true }).click();
	await expect(page.getByRole('heading', { name: 'Scan with your phone' })).toBeVisible({ timeout: 20_000 });
	const link = await page.getByTestId('qr-code').getAttribute('data-deep-link');
	const token = /\?start=([A-Za-z0-9_-]+)$/.exec(link ?? '')?.[1];
	expect(link).toMatch(/^https:\/\/t\.me\/\w+\?start=/);
	expect(token).toBeTruthy();
	await expect(page.getByRole('link', { name: /emulator/ })).toHaveAttribute(
		'href',
		`http://localhost:${product.emulatorPort}/?start=${token}`
	);
	return token!;
}

/**
 * The guest opens the kiosk's link in Telegram, consents, and is shown the catalogue: its message
 * (the outfits' buttons are `go:<outfit>:<token>`).
 */
export async function guestOpensCatalogue(
	control: ReturnType<typeof createControlClient>,
	userId: number,
	token: string,
	firstName = 'Kamola'
) {
	await control.sendUserMessage({
		user: { id: userId, first_name: firstName, language_code: 'en' },
		text: `/start ${token}`
	});
	const prompt = await control.waitForMessage(
		userId,
		(m) => m.from_bot && m.buttons.flat().some((b) => b.callback_data === `gc:${token}`),
		{ timeoutMs: 15_000 }
	);
	await control.pressButton({ user_id: userId, message_id: prompt.message_id, callback_data: `gc:${token}` });
	return control.waitForMessage(userId, (m) => m.from_bot && m.photo !== undefined, { timeoutMs: 15_000 });
}

export async function guestChoosesOutfit(
	control: ReturnType<typeof createControlClient>,
	userId: number,
	token: string
): Promise<void> {
	const catalogue = await guestOpensCatalogue(control, userId, token);
	await control.pressButton({
		user_id: userId,
		message_id: catalogue.message_id,
		callback_data: `go:astronaut:${token}`
	});
}

/** A kiosk opened and started, its guest linked with an outfit chosen: the camera screen. The session's token. */
export async function kioskAtCamera(
	page: Page,
	product: ProductStack,
	control: ReturnType<typeof createControlClient>,
	userId: number
): Promise<string> {
	await openKiosk(page, product);
	const token = await startAndReadToken(page, product);
	await guestChoosesOutfit(control, userId, token);
	await expect(page.getByRole('heading', { name: 'Look at the camera' })).toBeVisible();
	return token;
}

/** How many jobs the session queued (a photo makes exactly one, however often it is sent). */
export async function jobsOfSession(product: ProductStack, token: string): Promise<number> {
	return Number(
		(await product.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM jobs WHERE session_token = ?`, token))?.n
	);
}
