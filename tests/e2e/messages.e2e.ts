import { expect, test } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';

/**
 * The console's Messages page against the running product: rows planted in the product's SQLite
 * file (as the worker would write them) show as today's counters, the daily chart, the recent
 * conversations and one guest's conversation drawn as a chat; an unknown guest gets a sentence.
 */
const SETUP_TOKEN = 'e2emessagessetuptokenabcdefghij3';
const OWNER = { username: 'mira', password: 'owner password 456' };
const DILNOZA = 7_002_001;

function plantMessages(): void {
	withE2eDb((db) => {
		const now = new Date();
		const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
		const today = now.toISOString().slice(0, 10);
		const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
		db.prepare('INSERT INTO users (telegram_user_id, first_name, username, created_at) VALUES (?, ?, ?, ?)').run(
			DILNOZA,
			'Dilnoza',
			'dilnoza_e2e',
			now.toISOString()
		);
		const message = db.prepare(
			'INSERT INTO bot_messages (telegram_user_id, direction, kind, text, message_id, at) VALUES (?, ?, ?, ?, ?, ?)'
		);
		message.run(DILNOZA, 'in', 'command', '/start', 1, at(-3));
		message.run(DILNOZA, 'out', 'text', 'Hello Dilnoza! May we use your photo?', 2, at(-2));
		message.run(DILNOZA, 'in', 'callback', 'Yes, I agree', 2, at(-1));
		const day = db.prepare(
			'INSERT INTO message_activity (day, incoming, outgoing, guests) VALUES (?, ?, ?, ?) ON CONFLICT(day) DO UPDATE SET incoming = excluded.incoming, outgoing = excluded.outgoing, guests = excluded.guests'
		);
		day.run(today, 2, 1, 1);
		day.run(yesterday, 40, 55, 9);
	});
}

test('the Messages page shows counters, the chart, a conversation as a chat, and an empty state', async ({ page }) => {
	plantMessages();
	await signInOwnOperator(page, { ...OWNER, setupToken: SETUP_TOKEN });

	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Messages' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
	await expect(page.getByTestId('today-incoming')).toHaveText('2');
	await expect(page.getByTestId('today-outgoing')).toHaveText('1');
	await expect(page.getByTestId('today-guests')).toHaveText('1');
	// The chart draws 14 days; its text equivalent says each day's numbers.
	const chart = page.getByRole('group', { name: /^Bot messages per day, in and out \(UTC\)\. Arrow keys/ });
	await expect(chart.locator('.lc-bar')).toHaveCount(14);
	const days = page.getByRole('list', { name: 'Bot messages per day, in and out (UTC)' }).getByRole('listitem');
	await expect(days).toHaveCount(14);
	const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
	await expect(days.filter({ hasText: yesterday })).toHaveText(`${yesterday}: 40 in, 55 out, 9 people`);

	await page.getByRole('link', { name: /Dilnoza @dilnoza_e2e/ }).click();
	const chat = page.getByRole('region', { name: 'Conversation', exact: true });
	await expect(chat.getByRole('heading')).toContainText('Dilnoza · @dilnoza_e2e');
	const lines = chat.getByRole('listitem');
	await expect(lines).toHaveCount(3);
	await expect(lines.nth(0)).toHaveAttribute('data-direction', 'in');
	await expect(lines.nth(1)).toContainText('May we use your photo?');
	await expect(lines.nth(1)).toHaveAttribute('data-direction', 'out');
	await expect(lines.nth(2)).toContainText('Yes, I agree');

	await page.getByRole('searchbox').fill('@nobody_here');
	await page.getByRole('button', { name: 'Show conversation' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'No guest matches “@nobody_here”' })).toBeVisible();

	await page.getByRole('searchbox').fill('7002999');
	await page.getByRole('button', { name: 'Show conversation' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'No guest matches “7002999”' })).toBeVisible();
});
