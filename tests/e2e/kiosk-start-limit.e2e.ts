import { expect } from './product-stack.ts';
import { openKiosk, test } from './kiosk-steps.ts';

/**
 * Start refused by the server's start limit (START_LIMIT: a burst of 10 per kiosk, then one every
 * 6 s; docs/kiosk.md): the guest is told to wait, in the kiosk's language, with the seconds left,
 * and Start comes back by itself once the server's Retry-After has passed.
 */
test('Start refused by the start limit says to wait, then works again', async ({ page, product }) => {
	test.setTimeout(90_000);
	await openKiosk(page, product);
	// The kiosk openKiosk just registered: the newest (the project runs one spec at a time).
	const { id } = (await product.db.get<{ id: number }>('SELECT id FROM kiosks ORDER BY id DESC LIMIT 1'))!;
	const key = `kiosk-start:${id}`;
	// An empty bucket whose refill starts only in an hour: every Start is refused until the row goes,
	// so the test does not race the real refill (the server still answers Retry-After: 6).
	await product.db.run(
		'INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES (?, 0, ?) ON CONFLICT (key) DO UPDATE SET tokens = 0, updated_at = excluded.updated_at',
		key,
		new Date(Date.now() + 3_600_000).toISOString()
	);

	const start = page.getByRole('button', { name: 'Start', exact: true });
	await start.click();
	const wait = page.getByTestId('start-wait');
	await expect(wait).toHaveText(/^Many guests have just started — wait [1-6] s, then tap Start again\.$/);
	await expect(wait).toHaveRole('status');
	await expect(start).toBeDisabled();
	await expect(page.getByRole('heading', { name: 'Scan with your phone' })).toBeHidden();

	// The kiosk's other languages say the same.
	await page.getByRole('button', { name: 'Русский' }).click();
	await expect(wait).toContainText('подождите');
	await expect(wait).toContainText('нажмите «Старт» ещё раз');
	await page.getByRole('button', { name: 'English' }).click();

	// Once the server's Retry-After has passed the sentence goes and Start is on again.
	await expect(wait).toBeHidden({ timeout: 15_000 });
	await expect(start).toBeEnabled();

	// The limit has room again: Start opens the QR screen.
	await product.db.run('DELETE FROM rate_limit_buckets WHERE key = ?', key);
	await start.click();
	await expect(page.getByRole('heading', { name: 'Scan with your phone' })).toBeVisible({ timeout: 20_000 });
});
