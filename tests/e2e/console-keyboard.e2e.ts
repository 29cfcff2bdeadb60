import { expect, test, type Locator, type Page } from '@playwright/test';
import { addOperator, withE2eDb } from './console-operator.ts';
import { consoleKeysHint, pressConsoleKey } from './console-ready.ts';

/**
 * The console with the keyboard only: sign in, open a failed job by its number, retry it, pause
 * and resume the queue — Tab, Enter, Space and the page shortcuts, no mouse — and every stop the
 * operator lands on shows where the focus is (a visible outline). Without JavaScript the sign-in
 * still works and the line that lists the keys is not offered: the keys need the script.
 */
const OPERATOR = { username: 'kemal_keys', password: 'keyboard password 42', role: 'operator' as const };
const GUEST = 7_003_100 + Math.floor(Math.random() * 1000);

function seedFailedJob(): number {
	return withE2eDb((db) => {
		const now = new Date().toISOString();
		db.prepare('INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (?, ?, ?, ?)').run(
			GUEST,
			'Kamila',
			now,
			now
		);
		const token = `keystok${GUEST}`;
		db.prepare(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'suit', 'photo_taken', ?, ?)"
		).run(token, GUEST, now, now);
		return Number(
			db
				.prepare(
					"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, error, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'suit', 'failed', 3, 'deadline passed', ?, ?)"
				)
				.run(GUEST, token, now, now).lastInsertRowid
		);
	});
}

/** The focused element shows a ring: it matches :focus-visible and draws an outline. */
async function expectVisibleFocus(target: Locator): Promise<void> {
	await expect(target).toBeFocused();
	const ring = await target.evaluate((el) => {
		const style = getComputedStyle(el);
		return { focusVisible: el.matches(':focus-visible'), outline: style.outlineStyle, width: style.outlineWidth };
	});
	expect(ring.focusVisible).toBe(true);
	expect(ring.outline).not.toBe('none');
	expect(parseFloat(ring.width)).toBeGreaterThan(0);
}

/** Presses Tab until `target` has the focus (at most `limit` stops), then checks the ring. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
	for (let stop = 0; stop < limit; stop++) {
		await page.keyboard.press('Tab');
		if (await target.evaluate((el) => el === document.activeElement)) return expectVisibleFocus(target);
	}
	throw new Error(`${target} never got the focus in ${limit} presses of Tab`);
}

test('sign in, open a job, retry it, pause and resume the queue — keyboard only', async ({ page }) => {
	test.setTimeout(90_000);
	const jobId = seedFailedJob();
	await addOperator(OPERATOR);
	try {
		await page.goto('/console/login');
		await tabTo(page, page.getByLabel('Username'));
		await page.keyboard.type(OPERATOR.username);
		await page.keyboard.press('Tab');
		await expectVisibleFocus(page.getByLabel('Password'));
		await page.keyboard.type(OPERATOR.password);
		await page.keyboard.press('Enter');
		await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();

		await tabTo(page, page.getByRole('textbox', { name: 'Open job by number' }), 120);
		await page.keyboard.type(String(jobId));
		await page.keyboard.press('Enter');
		await expect(page.getByRole('heading', { level: 1, name: `Job #${jobId}` })).toBeVisible();

		// Enter asks once more and the focus moves to the question; Space confirms.
		await tabTo(page, page.getByRole('button', { name: 'Retry job' }));
		await page.keyboard.press('Enter');
		await expectVisibleFocus(page.getByRole('button', { name: 'Yes, queue it again' }));
		await page.keyboard.press('Space');
		await expect
			.poll(() =>
				withE2eDb((db) =>
					db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'retry_job' AND job_id = ?").get(jobId)
				)
			)
			.toEqual({ n: 1 });

		// The page shortcut l goes back to Live (the focus is on no field).
		await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
		await pressConsoleKey(page, 'l');
		await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
		const banner = page.getByRole('region', { name: 'Maintenance' });
		await tabTo(page, banner.getByRole('textbox', { name: 'Reason for the pause' }));
		await page.keyboard.type('keyboard check');
		await tabTo(page, banner.getByRole('button', { name: 'Pause', exact: true }), 3);
		// Cancel hands the focus back to Pause, so the operator can go on from there.
		await page.keyboard.press('Enter');
		await expectVisibleFocus(banner.getByRole('button', { name: 'Yes, pause everything' }));
		await page.keyboard.press('Tab');
		await expectVisibleFocus(banner.getByRole('button', { name: 'Cancel' }));
		await page.keyboard.press('Enter');
		await expectVisibleFocus(banner.getByRole('button', { name: 'Pause', exact: true }));
		await page.keyboard.press('Enter');
		await page.keyboard.press('Space');
		await expect(page.getByRole('status', { name: 'Maintenance' })).toContainText('keyboard check');

		await tabTo(page, page.getByRole('button', { name: 'Resume' }), 120);
		await page.keyboard.press('Space');
		await expect(page.getByRole('region', { name: 'Maintenance' })).toContainText('Running');
	} finally {
		// Other specs share this product: never leave it paused.
		withE2eDb((db) => db.prepare("DELETE FROM settings WHERE key = 'maintenance'").run());
	}
});

test('without JavaScript the operator signs in and reads Live; the keys hint waits for the script the keys need', async ({
	browser
}) => {
	await addOperator(OPERATOR);
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await page.goto('/console/login');
	await page.getByLabel('Username').fill(OPERATOR.username);
	await page.getByLabel('Password').fill(OPERATOR.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
	await expect(page.getByRole('navigation').getByRole('link', { name: /Logs/ })).toBeVisible();
	await expect(consoleKeysHint(page)).toHaveCount(0);
	await context.close();
});
