import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { hashPassword } from '../../src/lib/server/auth/password.ts';
import { E2E_EMULATOR_PORT } from '../../playwright.config.ts';
import { expectToast } from './toasts.ts';
import { expectConsoleScript, openConsolePage } from './console-ready.ts';

// A lead's whole path through the running product: the landing form → the worker posts the card
// into the emulator's sales group → an operator sets its status in the console → the worker edits
// the card in the group.

const DB_PATH = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data', 'app.db');
const SALES_GROUP = -1001000000001;
const OPERATOR = { username: 'lena_leads', password: 'leads password 123' };

async function groupTexts(): Promise<string[]> {
	const response = await fetch(`http://127.0.0.1:${E2E_EMULATOR_PORT}/_emulator/chats/${SALES_GROUP}/messages`);
	return ((await response.json()) as { text?: string }[]).map((m) => m.text ?? '');
}

test('a landing request reaches the sales group and the console, and a console status change edits the card', async ({
	page
}) => {
	const hash = await hashPassword(OPERATOR.password);
	const db = new Database(DB_PATH);
	db.prepare(
		"INSERT OR IGNORE INTO operators (username, password_hash, role, created_at) VALUES (?, ?, 'operator', ?)"
	).run(OPERATOR.username, hash, new Date().toISOString());
	db.close();

	const name = `E2E Console ${Math.random().toString(36).slice(2, 8)}`;
	await page.goto('/en');
	await page.getByRole('textbox', { name: 'Your name', exact: true }).fill(name);
	await page.getByRole('textbox', { name: 'Telegram', exact: true }).fill('@console_e2e');
	await page.getByRole('button', { name: 'Send request' }).click();
	await expect(page.getByRole('status')).toContainText('Request received');
	const reader = new Database(DB_PATH, { readonly: true });
	const id = (reader.prepare('SELECT id FROM leads WHERE name = ?').get(name) as { id: number }).id;
	reader.close();

	await expect
		.poll(async () => (await groupTexts()).find((t) => t.includes(`#stickers_${id} `)) ?? '', { timeout: 15_000 })
		.toContain(name);

	await page.goto('/console/login');
	await page.getByLabel('Username').fill(OPERATOR.username);
	await page.getByLabel('Password').fill(OPERATOR.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
	await expectConsoleScript(page);
	await openConsolePage(page, '/console/leads');
	await page.getByRole('searchbox').fill(name);
	await page.getByRole('button', { name: `#${id}` }).click();
	const card = page.getByRole('region', { name: `Lead #${id}` });
	await expect(card.getByText('@console_e2e')).toBeVisible();
	await card.getByRole('group', { name: 'Set the status' }).getByRole('button', { name: 'in work' }).click();
	await expectToast(page, `Lead #${id}: status set to in work; the card in the sales group follows.`);
	await expect(card.getByRole('listitem').filter({ hasText: 'by console: lena_leads' })).toHaveCount(1);

	await expect
		.poll(async () => (await groupTexts()).find((t) => t.includes(`#stickers_${id} `)) ?? '', { timeout: 15_000 })
		.toContain('console: lena_leads');
});
