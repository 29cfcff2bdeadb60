import { expect, test } from '@playwright/test';
import { signInOwnOperator } from './console-operator.ts';
import { expectToast } from './toasts.ts';

/**
 * The Kiosks page against the running product: an operator adds a kiosk, a tablet (a second
 * browser context, cookies of its own) opens the pairing link and shows Start; the console sees it
 * online; the PIN set in the console is what the tablet's Staff reset takes; a rename by keyboard;
 * revoking the kiosk sends the tablet back to the pairing screen by itself.
 */
const ME = {
	username: 'kira_kiosks',
	password: 'operator password 789',
	setupToken: 'e2ekioskssetuptokenabcdefghijklm7'
};

test('Kiosks: add, pair by link, set the staff PIN, rename, revoke', async ({ page, browser, baseURL }, testInfo) => {
	// The owner on a fresh product; an operator when another spec made the owner first (the role is
	// set before sign-in: a session keeps the role it signed in with).
	await signInOwnOperator(page, { ...ME, role: 'operator' });
	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Kiosks' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Kiosks' })).toBeVisible();

	await page.getByLabel('Kiosk name').fill('e2e hall');
	await page.getByRole('button', { name: 'Add kiosk' }).click();
	await expect(page.getByRole('heading', { name: 'Pair the tablet for “e2e hall”' })).toBeVisible();
	await expect(page.getByRole('img', { name: 'QR code of the pairing link for e2e hall' })).toBeVisible();
	const link = await page.getByRole('textbox', { name: 'Pairing link' }).inputValue();
	const key = await page.getByRole('textbox', { name: 'Kiosk key' }).inputValue();
	expect(link).toBe(`${baseURL}/kiosk#pair=${key}`);
	const row = page.locator('tr[data-kiosk="e2e hall"]');
	await expect(row).toContainText('never connected');

	const tablet = await (await browser.newContext({ baseURL })).newPage();
	await tablet.goto(link);
	await expect(tablet.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
	expect(tablet.url()).toBe(`${baseURL}/kiosk`);
	await expect(row).toContainText('Online');

	// The page as an operator sees it, on a laptop and on a phone (test artefacts).
	for (const width of [1366, 390]) {
		await page.setViewportSize({ width, height: 900 });
		const file = testInfo.outputPath(`kiosks-${width}px.png`);
		await page.screenshot({ path: file, fullPage: true });
		await testInfo.attach(`kiosks-${width}px`, { path: file, contentType: 'image/png' });
	}
	await page.setViewportSize({ width: 1280, height: 720 });
	await page.getByRole('button', { name: 'Done' }).click();
	await expect(page.getByRole('textbox', { name: 'Kiosk key' })).toHaveCount(0);

	await page.getByLabel('New staff PIN (4 to 12 digits)').fill('2468');
	await page.getByRole('button', { name: 'Set PIN' }).click();
	await expectToast(page, 'Staff PIN saved.');
	await expect(page.getByTestId('staff-pin-state')).toContainText(`PIN is set — Set by ${ME.username}`);

	await tablet.getByRole('button', { name: 'Staff' }).click();
	await tablet.getByLabel('Staff PIN').fill('1111');
	await tablet.getByRole('button', { name: 'Reset kiosk' }).click();
	await expect(tablet.getByRole('dialog', { name: 'Staff reset' }).getByRole('alert')).toHaveText('Wrong PIN.');
	await tablet.getByLabel('Staff PIN').fill('2468');
	await tablet.getByRole('button', { name: 'Reset kiosk' }).click();
	await expect(tablet.getByRole('dialog', { name: 'Staff reset' })).toHaveCount(0);

	// Rename from the keyboard: the field takes the focus, Enter saves; a taken name is refused in words.
	await row.getByRole('button', { name: 'Rename e2e hall' }).press('Enter');
	const nameField = page.getByLabel('New name for e2e hall');
	await expect(nameField).toBeFocused();
	await nameField.fill('kiosk-1');
	await nameField.press('Enter');
	await expect(page.getByRole('alert')).toHaveText('There is already a kiosk named "kiosk-1": choose another name.');
	await nameField.fill('e2e hall B');
	await nameField.press('Enter');
	const renamed = page.locator('tr[data-kiosk="e2e hall B"]');
	await expect(renamed).toContainText('Online');

	// The staff reset above closed the tablet's session: the console's Reset finds none open.
	await renamed.getByRole('button', { name: 'Reset e2e hall B' }).click();
	await renamed.getByRole('button', { name: 'Yes, close its session' }).click();
	await expectToast(page, 'Kiosk e2e hall B: no session was open, nothing to reset.');

	await page.getByRole('button', { name: 'Clear the PIN' }).click();
	await page.getByRole('button', { name: 'Yes, turn staff reset off' }).click();
	await expectToast(page, 'PIN cleared: staff reset is off.');
	await expect(page.getByTestId('staff-pin-state')).toContainText('No PIN');

	await renamed.getByRole('button', { name: 'Revoke e2e hall B' }).click();
	await renamed.getByRole('button', { name: 'Yes, revoke its key' }).click();
	await expectToast(page, 'Kiosk e2e hall B is revoked.');
	await expect(renamed).toContainText('Revoked');
	await expect(renamed.getByRole('button', { name: 'Revoke e2e hall B' })).toHaveCount(0);
	// The tablet's open stream notices within seconds; nobody touches it.
	await expect(tablet.getByRole('heading', { name: 'This kiosk is not paired' })).toBeVisible({ timeout: 15_000 });
	await tablet.context().close();
});
