import { expect, test } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';

/**
 * In the browser: when the session behind an open console page ends
 * elsewhere (signed out on another device, removed, expired), the page's live view gets the
 * server's UNAUTHORIZED event within seconds and sends the person to sign in, coming back to the
 * same page afterwards. (Named to run after console-access.e2e.ts, which must find no operator yet.)
 */
const SETUP_TOKEN = 'e2estreamssetuptokenabcdefghijk4';
const OPERATOR = { username: 'stas', password: 'streams password 456', setupToken: SETUP_TOKEN };

test('finding 3: a console page goes to sign-in within seconds when its session ends elsewhere', async ({ page }) => {
	await signInOwnOperator(page, OPERATOR);
	await page.getByRole('link', { name: 'Spend' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Spend' })).toBeVisible();

	// Signed out on another device: the server deletes every session of this operator.
	withE2eDb((db) =>
		db
			.prepare('DELETE FROM operator_sessions WHERE operator_id = (SELECT id FROM operators WHERE username = ?)')
			.run(OPERATOR.username)
	);
	await expect(page).toHaveURL(/\/console\/login\?next=%2Fconsole%2Fspend/);

	await page.getByLabel('Username').fill(OPERATOR.username);
	await page.getByLabel('Password').fill(OPERATOR.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Spend' })).toBeVisible();
});
