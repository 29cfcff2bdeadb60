import { expect, test, type Page } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';
import { expectWithinPhoneWidth, VIEWPORTS } from './page-check.ts';
import { openConsolePage, pressConsoleKey } from './console-ready.ts';

/**
 * The console's Logs page against the running product (built web + worker + emulator): the
 * worker's launch history (the real running launch plus planted ones that stopped cleanly and
 * went silent), stored warnings and errors filtered by process, level, text and launch, the
 * context folded away, and both empty states. Rows are planted in the product's SQLite file as
 * the processes' log sinks would write them.
 */
const SETUP_TOKEN = 'e2elogssetuptokenabcdefghijklmn4';
const OWNER = { username: 'lola', password: 'owner password 789', setupToken: SETUP_TOKEN };
const CLEAN = { id: 'kiosk-box:4101:1', pid: 4101 };
const CRASHED = { id: 'kiosk-box:4102:2', pid: 4102 };

const withDb = withE2eDb;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Two earlier launches (one stopped by SIGTERM, one killed) and what they and the web logged. */
function plantLaunchesAndLogs(): void {
	withDb((db) => {
		const launch = db.prepare(
			"INSERT INTO worker_processes (id, pid, hostname, version, slots, busy_slots, started_at, heartbeat_at, stopped_at) VALUES (?, ?, 'kiosk-box', 'v-e2e', 3, 0, ?, ?, ?)"
		);
		launch.run(CLEAN.id, CLEAN.pid, minutesAgo(300), minutesAgo(240), minutesAgo(240));
		launch.run(CRASHED.id, CRASHED.pid, minutesAgo(200), minutesAgo(120), null);
		const entry = db.prepare(
			'INSERT INTO log_entries (at, process, level, message, context, worker_id) VALUES (?, ?, ?, ?, ?, ?)'
		);
		entry.run(
			minutesAgo(250),
			'worker',
			'warn',
			'provider slow; retrying',
			JSON.stringify({ job: 7, retryInMs: 4000 }),
			CLEAN.id
		);
		entry.run(
			minutesAgo(125),
			'worker',
			'error',
			'sticker upload failed',
			JSON.stringify({ job: 42, err: { type: 'GrammyError', message: 'Bad Request: STICKERSET_INVALID' } }),
			CRASHED.id
		);
		entry.run(
			minutesAgo(60),
			'web',
			'warn',
			'database busy past busy_timeout; answered 503',
			JSON.stringify({ path: '/api/kiosk/upload' }),
			null
		);
	});
}

const entryRows = (page: Page) => page.getByRole('table', { name: 'Log entries' }).locator('tbody tr');
const launchRows = (page: Page) => page.getByRole('table', { name: 'Launch history' }).locator('tbody tr');

test('the Logs page: launch history, filters, context and empty states', async ({ page }) => {
	await signInOwnOperator(page, OWNER);

	// Empty state: nothing stored yet (whatever the product logged so far is cleared first).
	withDb((db) => db.prepare('DELETE FROM log_entries').run());
	await pressConsoleKey(page, 'x');
	await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
	await expect(page.getByText('No warnings or errors recorded')).toBeVisible();
	// The product's own worker is the running launch.
	await expect(launchRows(page).filter({ hasText: 'running' })).toHaveCount(1);

	// Rows written by another process show up without a reload.
	plantLaunchesAndLogs();
	await expect(entryRows(page)).toHaveCount(3);
	await expect(entryRows(page).first()).toContainText('database busy past busy_timeout');
	// By the "host · pid" cell: a bare pid also turns up where one cell's time ends and the next
	// cell's date begins ("…12:25:41" + "02 Dec…" reads "4102").
	const crashed = launchRows(page).filter({ hasText: `kiosk-box · ${CRASHED.pid}` });
	await expect(crashed).toContainText('silent since');
	await expect(crashed).toContainText('no stop recorded (crash or kill)');
	await expect(crashed).toContainText('1 h 20 min');
	const clean = launchRows(page).filter({ hasText: `kiosk-box · ${CLEAN.pid}` });
	await expect(clean).toContainText('clean stop');
	await expect(clean).toContainText('1 h 0 min');

	// Each filter is checked as "exactly these rows" in one retrying assertion: a count alone can
	// match the previous filter's answer while the new one is still on its way.
	await page.getByLabel('Process').selectOption('web');
	await expect(entryRows(page)).toHaveText([/answered 503/]);
	await page.getByLabel('Process').selectOption('');
	await expect(entryRows(page)).toHaveCount(3);
	await page.getByLabel('Level').selectOption('error');
	await expect(entryRows(page)).toHaveText([/sticker upload failed/]);
	await page.getByLabel('Level').selectOption('');
	await expect(entryRows(page)).toHaveCount(3);
	await page.getByLabel('Text').fill('retrying');
	await expect(entryRows(page)).toHaveText([/provider slow/]);
	await page.getByLabel('Text').fill('STICKERSET_INVALID');
	await expect(entryRows(page)).toHaveText([/sticker upload failed/]);
	await page.getByRole('button', { name: 'Clear filters' }).click();
	await expect(entryRows(page)).toHaveCount(3);

	// One launch's lines, with the context unfolded.
	await page.getByRole('button', { name: `Logs of the launch of pid ${CRASHED.pid}` }).click();
	await expect(entryRows(page)).toHaveCount(1);
	const row = entryRows(page).first();
	await expect(row).toContainText('sticker upload failed');
	await expect(row.locator('pre')).toBeHidden();
	await row.getByText('context', { exact: true }).click();
	await expect(row.locator('pre')).toContainText('"job": 42');

	await page.getByLabel('Text').fill('no such words anywhere');
	await expect(page.getByText('No log entries match these filters.')).toBeVisible();
	// Enter applies the text at once; Clear filters empties every field.
	await page.getByLabel('Text').fill('STICKERSET');
	await page.getByLabel('Text').press('Enter');
	await expect(entryRows(page)).toHaveText([/sticker upload failed/]);
	await page.getByRole('button', { name: 'Clear filters' }).click();
	await expect(page.getByLabel('Text')).toHaveValue('');
	await expect(page.getByLabel('Launch', { exact: true })).toHaveValue('');
	await expect(entryRows(page)).toHaveCount(3);
});

test('on a 390 px phone each log entry stacks: its message is on the screen, the page does not scroll sideways', async ({
	page
}) => {
	await page.setViewportSize(VIEWPORTS[1]);
	await signInOwnOperator(page, OWNER);
	withDb((db) => {
		db.prepare('DELETE FROM log_entries').run();
		db.prepare('DELETE FROM worker_processes WHERE id IN (?, ?)').run(CLEAN.id, CRASHED.id);
	});
	plantLaunchesAndLogs();
	await openConsolePage(page, '/console/logs');
	const row = entryRows(page).filter({ hasText: 'sticker upload failed' });
	const message = row.locator('[data-log-message]');
	// Time, process and level are on a line above the message, not in columns beside it.
	await expect(row.getByText('error', { exact: true }).filter({ visible: true })).toHaveCount(1);
	await expect(page.getByRole('columnheader', { name: 'Level' })).toBeHidden();
	await expectWithinPhoneWidth(page, message);
});
