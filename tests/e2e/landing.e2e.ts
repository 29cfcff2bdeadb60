import { gzipSync } from 'node:zlib';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';

// The landing page as visitors use it: with JavaScript and without, in two languages, with
// mistakes first. Leads are read back from the product's own SQLite file.

const DB_PATH = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data', 'app.db');
const BUDGET_BYTES = 50 * 1024;

function leadsNamed(name: string): Record<string, unknown>[] {
	const db = new Database(DB_PATH, { readonly: true, fileMustExist: true });
	try {
		return db.prepare('SELECT * FROM leads WHERE name = ?').all(name) as Record<string, unknown>[];
	} finally {
		db.close();
	}
}

const unique = () => Math.random().toString(36).slice(2, 8);

async function fillValidForm(page: Page, fields: { name: string; phone: string; telegram?: string }): Promise<void> {
	const box = (name: string) => page.getByRole('textbox', { name, exact: true });
	await box('Your name').fill(fields.name);
	if (fields.telegram) await box('Telegram').fill(fields.telegram);
	await box('Phone').fill(fields.phone);
	await box('Event date').fill('15 June');
	await box('Guests').fill('200');
}

test('"/" speaks the browser\'s language; /ru, /uz and /en are fixed languages', async ({ browser }) => {
	const russian = await browser.newContext({ locale: 'ru-RU' });
	const page = await russian.newPage();
	await page.goto('/');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ваши гости становятся стикерами');
	await page.goto('/uz');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mehmonlaringiz stikerga aylanadi');
	await page.goto('/en');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your guests become stickers');
	await expect(page.getByRole('img', { name: 'Sample sticker' }).first()).toBeVisible();
	await russian.close();
});

test('with JavaScript (English): inline errors, then the request is sent without a reload', async ({ page }) => {
	await page.goto('/en?utm_source=instagram&utm_medium=stories&utm_campaign=spring');
	await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
	await page.getByRole('button', { name: 'Send request' }).click();
	await expect(page.getByText('Please tell us your name.')).toBeVisible();
	await expect(page.getByText('Leave a phone or a Telegram username so we can answer.')).toBeVisible();
	await page.getByRole('textbox', { name: 'Telegram' }).fill('@no');
	await page.getByRole('textbox', { name: 'Telegram' }).blur();
	await expect(page.getByText(/A Telegram username has 5–32 letters/)).toBeVisible();

	const name = `E2E Aziza ${unique()}`;
	await fillValidForm(page, { name, telegram: `@aziza_${unique()}`, phone: '+998 90 111 22 33' });
	await page.getByRole('button', { name: 'Send request' }).click();
	await expect(page.getByRole('status')).toContainText('Request received — thank you!');
	expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

	const [lead] = leadsNamed(name);
	expect(lead).toMatchObject({
		locale: 'en',
		phone: '+998901112233',
		utm_source: 'instagram',
		utm_medium: 'stories',
		utm_campaign: 'spring',
		status: 'new'
	});
	expect(String(lead?.utm)).toContain('utm_source=instagram');
	expect(String(lead?.ip_hash)).toMatch(/^[0-9a-f]{32}$/);
	expect(lead?.submitted_at).toBeTruthy();
});

test('without JavaScript (Russian): a plain form post with server-side errors, then success', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await page.goto('/ru');
	await page.getByRole('textbox', { name: 'Телефон' }).fill('12');
	await page.getByRole('button', { name: 'Отправить заявку' }).click();
	await expect(page.getByRole('alert')).toHaveText('Проверьте отмеченные поля. Заявка ещё не отправлена.');
	await expect(page.getByText('Пожалуйста, укажите имя.')).toBeVisible();
	await expect(page.getByText('Это не похоже на номер телефона. Пример: +998 90 123 45 67.')).toBeVisible();
	await expect(page.getByRole('textbox', { name: 'Телефон' })).toHaveValue('12');

	const name = `E2E Дильшод ${unique()}`;
	await page.getByRole('textbox', { name: 'Ваше имя' }).fill(name);
	await page.getByRole('textbox', { name: 'Телефон' }).fill(`90 ${100 + Math.floor(Math.random() * 800)} 45 67`);
	await page.getByRole('button', { name: 'Отправить заявку' }).click();
	await expect(page.getByRole('status')).toContainText('Заявка получена — спасибо!');
	const [lead] = leadsNamed(name);
	expect(lead).toMatchObject({ locale: 'ru', status: 'new' });
	expect(String(lead?.phone)).toMatch(/^\+99890\d{7}$/);
	await context.close();
});

test('a double submit makes one lead — a double click with JavaScript and a re-posted form without it', async ({
	page,
	request,
	baseURL
}) => {
	await page.goto('/en');
	const name = `E2E Double ${unique()}`;
	await fillValidForm(page, { name, phone: `+99891${String(Math.floor(1e6 + Math.random() * 8e6))}` });
	await page.getByRole('button', { name: 'Send request' }).dblclick();
	await expect(page.getByRole('status')).toContainText('Request received');
	expect(leadsNamed(name)).toHaveLength(1);

	// Without JavaScript a browser may send the same form twice: same request_id, one lead.
	await page.goto('/en');
	const requestId = await page.locator('input[name="request_id"]').inputValue();
	const plainName = `E2E Plain ${unique()}`;
	const form = {
		request_id: requestId,
		name: plainName,
		phone: `+99893${String(Math.floor(1e6 + Math.random() * 8e6))}`,
		website: ''
	};
	for (let i = 0; i < 2; i++) {
		const response = await request.post('/en', { form, headers: { origin: baseURL!, accept: 'text/html' } });
		expect(response.status()).toBe(200);
		expect(await response.text()).toContain('Request received — thank you!');
	}
	expect(leadsNamed(plainName)).toHaveLength(1);
});

test("the page's own JS and CSS stay within 50 KB gzipped", async ({ page }) => {
	const bodies: { url: string; bytes: number }[] = [];
	page.on('response', async (response) => {
		const type = response.request().resourceType();
		if (type === 'script' || type === 'stylesheet')
			bodies.push({ url: response.url(), bytes: gzipSync(await response.body()).length });
	});
	await page.goto('/en', { waitUntil: 'networkidle' });
	const total = bodies.reduce((sum, b) => sum + b.bytes, 0);
	console.log(`landing JS+CSS: ${bodies.length} files, ${(total / 1024).toFixed(1)} KB gzipped (budget 50 KB)`);
	expect(bodies.length).toBeGreaterThan(0);
	expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
