import { expect, test } from '@playwright/test';

test('the start page links to every part of the product and shows live status', async ({ page }) => {
	await page.goto('/start');
	await expect(page.getByRole('heading', { level: 1, name: 'Sticker kiosk' })).toBeVisible();
	const nav = page.getByRole('navigation', { name: 'Parts of the product' });
	await expect(nav.getByRole('link', { name: /Kiosk/ })).toHaveAttribute('href', '/kiosk');
	await expect(nav.getByRole('link', { name: /Landing page/ })).toHaveAttribute('href', '/en');
	await expect(nav.getByRole('link', { name: /Operator console/ })).toHaveAttribute('href', '/console');
	await expect(nav.getByRole('link', { name: /Telegram emulator/ })).toBeVisible();
	await expect(page.getByText('reachable', { exact: true })).toBeVisible();
});

test('the worker reports its heartbeat to /health, which Chromium loads as JSON', async ({ page }) => {
	await expect
		.poll(
			async () => {
				const response = await page.goto('/health');
				return (await response?.json())?.worker?.alive;
			},
			{ timeout: 30_000 }
		)
		.toBe(true);
	const response = await page.goto('/health');
	expect(response?.status()).toBe(200);
	expect(response?.headers()['x-frame-options']).toBe('DENY');
	expect(response?.headers()['x-content-type-options']).toBe('nosniff');
	// Status only: the details (pause reason, version, provider) are on the console's Health page.
	expect(await response?.json()).toEqual({ status: 'ok', worker: { alive: true }, demo: true });
});

test('a cross-site JSON call to the API is refused, a same-origin one answers', async ({ request, baseURL }) => {
	const foreign = await request.post('/api/trpc/system.health', {
		headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
		data: {}
	});
	expect(foreign.status()).toBe(403);
	const missing = await request.post('/api/trpc/system.health', {
		headers: { 'content-type': 'text/plain' },
		data: '{}'
	});
	expect(missing.status()).toBe(403);
	const same = await request.get('/api/trpc/system.health', { headers: { origin: baseURL! } });
	expect(same.status()).toBe(200);
	expect((await same.json()).result.data.status).toBe('ok');
});
