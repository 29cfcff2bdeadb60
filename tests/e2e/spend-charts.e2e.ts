import { expect, test, type Page } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';
import { openConsolePage } from './console-ready.ts';
import { expectNoSidewaysScroll } from './page-check.ts';

/**
 * The Spend page's charts (layerchart): a bar's tooltip follows the pointer and the keyboard (the
 * chart is one tab stop, the arrow keys go from bar to bar and a screen reader hears the same
 * sentence), the numbers are also in tables (the charts' text equivalent), and a phone's width
 * never scrolls the page sideways.
 */
const VIEWER = {
	username: 'sami_spend',
	password: 'spend viewer password 7',
	setupToken: 'e2espendsetuptokenabcdefghijklm7'
};
const MODEL = `spend-e2e-${Date.now().toString(36)}`;
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Two calls yesterday at noon (UTC): outside the Live page's 15-minute provider window. */
function seedYesterday(): void {
	const noon = new Date(`${isoDay(Date.now() - DAY)}T12:00:00.000Z`).toISOString();
	withE2eDb((db) => {
		const insert = db.prepare(
			"INSERT INTO api_usage (job_id, ts, kind, provider, model, est_cost_usd, ok, stage, images) VALUES (NULL, ?, 'image', 'gemini', ?, ?, 1, 'sheet', 1)"
		);
		insert.run(noon, MODEL, 0.25);
		insert.run(noon, MODEL, 0.75);
	});
}

/** A day's cost and calls, from the database (other specs add calls to the same days). */
function dayTotals(day: string): { cost: number; calls: number } {
	return withE2eDb(
		(db) =>
			db
				.prepare(
					'SELECT coalesce(sum(est_cost_usd), 0) AS cost, count(*) AS calls FROM api_usage WHERE substr(ts, 1, 10) = ?'
				)
				.get(day) as { cost: number; calls: number }
	);
}

/** The sentence a day's bar says. */
function daySentence(day: string): string {
	const { cost, calls } = dayTotals(day);
	return `${day}: $${cost.toFixed(2)} in ${calls} calls`;
}

/** Opens the page signed in; returns the browser's uncaught errors so far (layerchart's included). */
async function openSpend(page: Page): Promise<string[]> {
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(error.message));
	await signInOwnOperator(page, { ...VIEWER, role: 'viewer' });
	// The built server renders the page (the charts follow in the browser, with the live data).
	const response = await openConsolePage(page, '/console/spend');
	expect(response?.status()).toBe(200);
	await expect(page.getByRole('heading', { name: 'Spend per day (UTC)' })).toBeVisible();
	return errors;
}

test.beforeAll(seedYesterday);

test('the per-day chart reads its bars by keyboard, and by pointer', async ({ page }) => {
	const errors = await openSpend(page);
	const chart = page.getByRole('group', { name: /^Spend per day \(UTC\)\. Arrow keys/ });
	const spoken = chart.locator('[aria-live="polite"]');
	const yesterday = isoDay(Date.now() - DAY);
	const today = isoDay(Date.now());

	await chart.focus();
	await page.keyboard.press('End');
	await expect(spoken).toHaveText(daySentence(today));
	await page.keyboard.press('ArrowLeft');
	await expect(spoken).toHaveText(daySentence(yesterday));
	// The same sentence is drawn beside the bar for sighted keyboard users.
	await expect(page.locator('.lc-tooltip-root').getByText(daySentence(yesterday))).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(spoken).toHaveText('');
	await expect(page.locator('.lc-tooltip-root').getByText(daySentence(yesterday))).toBeHidden();

	// The pointer over yesterday's bar (the one before the last of the 14) shows its tooltip too.
	// The plot starts 44 px in (the money axis) and ends 12 px before the edge; 14 days share it.
	const box = (await chart.boundingBox())!;
	await page.mouse.move(box.x + 44 + (box.width - 56) * (12.5 / 14), box.y + box.height / 2);
	await expect(page.locator('.lc-tooltip-root').getByText(daySentence(yesterday))).toBeVisible();

	// The text equivalent: every day's cost and calls in a table a screen reader reads.
	const table = page.getByRole('table', { name: 'Spend per day (UTC)' });
	await expect(table.getByRole('row', { name: new RegExp(`^${yesterday} `) })).toContainText(
		`$${dayTotals(yesterday).cost.toFixed(2)}`
	);
	expect(errors).toEqual([]);
});

test('per stage and per provider: bars and a table with the full names, no sideways scroll on a phone', async ({
	page
}) => {
	await page.setViewportSize({ width: 390, height: 844 });
	const errors = await openSpend(page);
	const perProvider = page.getByRole('region', { name: 'Per provider' });
	await expect(perProvider.getByRole('group', { name: /^Spend per provider\. Arrow keys/ })).toBeVisible();
	await expect(perProvider.getByRole('rowheader', { name: `gemini · ${MODEL}` })).toBeVisible();
	await expect(
		page.getByRole('region', { name: 'Per stage' }).getByRole('rowheader', { name: 'sheet', exact: true })
	).toBeVisible();
	await expect(page.getByLabel('Window')).toHaveValue('14');
	await expectNoSidewaysScroll(page, 'Spend scrolls sideways at 390 px');
	expect(errors).toEqual([]);
});
