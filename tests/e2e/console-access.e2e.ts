import { createHash } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { seedGuests, lastAudit } from './console-fixtures.ts';
import { withE2eDb } from './console-operator.ts';
import { expectToast } from './toasts.ts';
import { expectConsoleScript, openConsolePage } from './console-ready.ts';

/**
 * Who may use the operator console, against the running product (built web + worker + emulator):
 * the first run's setup link creates the owner once, sign-in/out, the owner adds a viewer, a viewer
 * is refused in the UI and by the server, cross-site calls are refused, a role change and a removal
 * end the operator's sessions. Fixtures are written straight into the product's SQLite file, as
 * another process would. The console's actions are console-actions.e2e.ts.
 */
const SETUP_TOKEN = 'e2econsolesetuptokenabcdefghijk2';
const OWNER = { username: 'olga', password: 'owner password 123' };
const VIEWER = { username: 'vera', password: 'viewer password 123' };
const ANNA = 7_001_011;

let failedJob = 0;
let doneJob = 0;

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
	await page.goto('/console/login');
	await page.getByLabel('Username').fill(who.username);
	await page.getByLabel('Password').fill(who.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
	await expectConsoleScript(page);
}

async function newSignedInPage(browser: Browser, who: { username: string; password: string }): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await signIn(page, who);
	return page;
}

test.describe.serial('operator console: access', () => {
	let page: Page;

	test.beforeAll(async ({ browser }) => {
		// Specs share one product per run and others may have signed in first (they create an
		// operator); this spec proves the first run, so it brings back the state of "no operator yet".
		withE2eDb((db) => {
			db.prepare('DELETE FROM operator_sessions').run();
			db.prepare('DELETE FROM api_tokens').run();
			db.prepare('DELETE FROM operators').run();
		});
		// The web process printed its own one-time link; this run plants a known token's hash instead.
		withE2eDb((db) => {
			const value = JSON.stringify({
				hash: createHash('sha256').update(SETUP_TOKEN).digest('hex'),
				created_at: new Date().toISOString()
			});
			db.prepare(
				"INSERT INTO settings (key, value, updated_at) VALUES ('console_setup_token', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
			).run(value, new Date().toISOString());
		});
		// Guests of its own: the viewer is shown their rows and refused every action on them.
		({ failedJob, doneJob } = seedGuests({ anna: ANNA, boris: 7_001_012 }, 'access'));
		page = await (await browser.newContext()).newPage();
	});

	test('first run: the console asks for the setup link, which creates the owner once', async () => {
		await page.goto('/console');
		await expect(page).toHaveURL(/\/console\/login/);
		await expect(page.getByText('First run: no operator exists yet')).toBeVisible();
		await page.goto('/console/setup?token=not-the-token');
		await expect(page.getByRole('alert')).toContainText('not valid');

		await page.goto(`/console/setup?token=${SETUP_TOKEN}`);
		await page.getByLabel('Username').fill(OWNER.username);
		await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
		await page.getByLabel('Repeat password').fill(OWNER.password);
		await page.getByRole('button', { name: 'Create owner and sign in' }).click();
		await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
		expect(lastAudit('setup_owner')?.actor).toBe('olga');

		await page.goto(`/console/setup?token=${SETUP_TOKEN}`);
		await expect(page.getByText('Setup is done')).toBeVisible();
	});

	test('sign-out ends the session; a wrong password is refused; the right one signs in', async () => {
		await openConsolePage(page, '/console');
		const cookie = (await page.context().cookies()).find((c) => c.name === 'console_session');
		expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
		await page.getByRole('button', { name: 'Sign out' }).click();
		await expect(page).toHaveURL(/\/console\/login/);
		// The old cookie is dead on the server too.
		const replay = await page.request.get('/api/trpc/auth.me', {
			headers: { cookie: `console_session=${cookie!.value}` }
		});
		expect(replay.status()).toBe(401);

		await page.getByLabel('Username').fill(OWNER.username);
		await page.getByLabel('Password').fill('not the password');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await expect(page.getByRole('alert')).toContainText('do not match');
		await signIn(page, OWNER);
		expect(lastAudit('sign_in')?.actor).toBe('olga');
	});

	test('the owner adds a viewer on the Operators page', async () => {
		await page.getByRole('link', { name: 'Operators' }).click();
		await page.getByLabel('Username').fill(VIEWER.username);
		await page.getByLabel('Role').selectOption('viewer');
		await page.getByLabel('Password (10+ characters)').fill(VIEWER.password);
		await page.getByRole('button', { name: 'Add operator' }).click();
		await expectToast(page, 'vera can now sign in as viewer.');
		await expect(page.locator('tr[data-operator="vera"] td.role')).toHaveText('viewer');
		expect(JSON.parse(lastAudit('add_operator')!.details!)).toEqual({ username: 'vera', role: 'viewer' });
	});

	test('a viewer sees everything but every action is off, in the UI and on the server', async ({
		browser,
		baseURL
	}) => {
		const viewer = await newSignedInPage(browser, VIEWER);
		await expect(viewer.getByText('You are signed in as a viewer')).toBeVisible();
		await expect(viewer.getByRole('button', { name: 'Pause', exact: true })).toBeDisabled();
		await openConsolePage(viewer, '/console/guests');
		await expect(
			viewer.locator(`tr[data-guest="${ANNA}"]`).getByRole('button', { name: 'Grant extra pack' })
		).toBeDisabled();
		await openConsolePage(viewer, '/console/operators');
		await expect(viewer.getByText('Only the owner can add or remove operators.')).toBeVisible();

		const calls: [string, unknown][] = [
			['console.pause', { reason: 'viewer' }],
			['console.resume', null],
			['guests.grantExtraPack', { telegramUserId: String(ANNA) }],
			['guests.reset', { telegramUserId: String(ANNA) }],
			['jobs.retry', { jobId: failedJob }],
			['jobs.redrawSticker', { jobId: doneJob, stickerNumber: 1 }],
			['spend.setBalance', { valueUsd: 1 }],
			['operators.add', { username: 'sneaky', role: 'owner', password: 'sneaky password 1' }],
			['operators.setRole', { operatorId: 1, role: 'viewer' }],
			['operators.remove', { operatorId: 1 }]
		];
		const auditBefore = withE2eDb((db) => db.prepare('SELECT count(*) AS n FROM audit_log').get());
		for (const [procedure, input] of calls) {
			const response = await viewer.request.post(`/api/trpc/${procedure}`, {
				headers: { origin: baseURL!, 'content-type': 'application/json' },
				data: input ?? {}
			});
			expect(response.status(), procedure).toBe(403);
		}
		expect(withE2eDb((db) => db.prepare('SELECT count(*) AS n FROM audit_log').get())).toEqual(auditBefore);
		await viewer.context().close();
	});

	test('a cross-origin or Origin-less JSON mutation is refused with 403 even with a valid cookie', async () => {
		const foreign = await page.request.post('/api/trpc/console.pause', {
			headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
			data: { reason: 'csrf' }
		});
		expect(foreign.status()).toBe(403);
		const missing = await page.request.post('/api/trpc/console.pause', {
			headers: { 'content-type': 'text/plain' },
			data: '{"reason":"csrf"}'
		});
		expect(missing.status()).toBe(403);
		expect(withE2eDb((db) => db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'maintenance'").get())).toEqual(
			{
				n: 0
			}
		);
	});

	test("changing an operator's role signs them out; they sign in again with the new role", async ({ browser }) => {
		const before = await newSignedInPage(browser, VIEWER);
		await openConsolePage(page, '/console/operators');
		await page.getByLabel('New role for vera').selectOption('operator');
		await page.getByRole('button', { name: 'Change role' }).click();
		await page.getByRole('button', { name: 'Yes, change and sign vera out' }).click();
		await expectToast(page, 'vera is now operator and was signed out.');
		await expect(page.locator('tr[data-operator="vera"] td.role')).toHaveText('operator');
		expect(lastAudit('change_operator_role')?.actor).toBe('olga');
		expect(JSON.parse(lastAudit('change_operator_role')!.details!)).toMatchObject({
			username: 'vera',
			from: 'viewer',
			to: 'operator'
		});
		expect((await before.request.get('/api/trpc/auth.me')).status()).toBe(401);
		await before.context().close();
		const after = await newSignedInPage(browser, VIEWER);
		expect(await (await after.request.get('/api/trpc/auth.me')).json()).toMatchObject({
			result: { data: { username: 'vera', role: 'operator' } }
		});
		await after.context().close();
	});

	test('removing an operator ends their sessions at once', async ({ browser }) => {
		const viewer = await newSignedInPage(browser, VIEWER);
		await openConsolePage(page, '/console/operators');
		await page.getByRole('button', { name: 'Remove vera' }).click();
		await page.getByRole('button', { name: 'Yes, remove and sign out' }).click();
		await expectToast(page, 'vera was removed and signed out.');
		await expect(page.locator('tr[data-operator="vera"]')).toHaveCount(0);
		expect(lastAudit('remove_operator')?.actor).toBe('olga');
		expect((await viewer.request.get('/api/trpc/auth.me')).status()).toBe(401);
		await viewer.goto('/console');
		await expect(viewer).toHaveURL(/\/console\/login/);
		await viewer.context().close();
	});
});
