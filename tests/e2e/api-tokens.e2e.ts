import { expect, test } from '@playwright/test';
import { signInOwnOperator } from './console-operator.ts';
import { expectToast } from './toasts.ts';

/**
 * The console's API tokens page against the running product: an operator creates a token, sees
 * the secret once, the token works on /api/v1, it is gone from the page afterwards, and revoking
 * it makes the API answer 401.
 */
const ME = {
	username: 'tanya_tokens',
	password: 'operator password 456',
	setupToken: 'e2etokenssetuptokenabcdefghijklm4'
};

test('API tokens: create, see the secret once, use it, revoke it', async ({ page }) => {
	// The owner on a fresh product; an operator when another spec made the owner first (the role is
	// set before sign-in: a session keeps the role it signed in with).
	await signInOwnOperator(page, { ...ME, role: 'operator' });
	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'API tokens' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();

	await page.getByLabel('Name').fill('dashboard');
	await page.getByLabel('leads:read').check();
	await page.getByRole('button', { name: 'Create token' }).click();
	const secretBox = page.getByLabel('New token');
	await expect(secretBox).toHaveValue(/^skt_[a-z2-7]{52}$/);
	const secret = await secretBox.inputValue();
	const row = page.locator('tr[data-token="dashboard"]');
	await expect(row).toContainText('stats:read, leads:read');
	await expect(row).toContainText('never');
	await expect(row).toContainText(secret.slice(0, 10));

	const summary = () => page.request.get('/api/v1/jobs/summary', { headers: { authorization: `Bearer ${secret}` } });
	expect((await summary()).status()).toBe(200);

	await page.getByRole('button', { name: 'I have copied it' }).click();
	await expect(secretBox).toHaveCount(0);
	await page.reload();
	await expect(row).toContainText('active');
	expect(await page.content()).not.toContain(secret);

	await row.getByRole('button', { name: 'Revoke dashboard' }).click();
	await row.getByRole('button', { name: 'Yes, revoke' }).click();
	await expectToast(page, 'Token dashboard is revoked: it no longer opens the API.');
	await expect(row).toContainText('revoked');
	await expect(row.getByRole('button', { name: 'Revoke dashboard' })).toHaveCount(0);
	const refused = await summary();
	expect(refused.status()).toBe(401);
	expect(refused.headers()['www-authenticate']).toContain('Bearer');
});
