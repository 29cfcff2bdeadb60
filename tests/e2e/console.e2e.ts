import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { expect, test, type Browser, type Page } from '@playwright/test';

/**
 * The operator console against the running product (built web + worker + emulator): first run,
 * sign-in/out, every action through the UI with its audit row, live updates without reload, a
 * viewer refused in the UI and by the server, cross-site calls refused, removal ends sessions.
 * Fixtures are written straight into the product's SQLite file, as another process would.
 */
const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
const DB_PATH = path.join(DATA_DIR, 'app.db');
const SETUP_TOKEN = 'e2econsolesetuptokenabcdefghijk2';
const OWNER = { username: 'olga', password: 'owner password 123' };
const VIEWER = { username: 'vera', password: 'viewer password 123' };
const ANNA = 7_001_001;
const BORIS = 7_001_002;

function withDb<T>(run: (db: Database.Database) => T): T {
	const db = new Database(DB_PATH, { fileMustExist: true, timeout: 5000 });
	try {
		return run(db);
	} finally {
		db.close();
	}
}
const lastAudit = (action: string) =>
	withDb(
		(db) =>
			db.prepare('SELECT * FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT 1').get(action) as
				| {
						actor: string;
						ip: string | null;
						details: string | null;
						job_id: number | null;
						telegram_user_id: number | null;
				  }
				| undefined
	);

let failedJob = 0;
let doneJob = 0;

function seedGuests(): void {
	withDb((db) => {
		const now = new Date().toISOString();
		const user = db.prepare(
			'INSERT INTO users (telegram_user_id, first_name, username, consented_at, pack_name, pack_link, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'
		);
		user.run(ANNA, 'Anna', 'anna_e2e', now, null, null, now);
		user.run(
			BORIS,
			'Boris',
			'boris_e2e',
			now,
			'boris_7001002_1_by_sticker_kiosk_bot',
			'https://t.me/addstickers/boris_7001002_1_by_sticker_kiosk_bot',
			now
		);
		const session = db.prepare(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'suit', 'photo_taken', ?, ?)"
		);
		const job = db.prepare(
			"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, error, pack_name, link_sent_at, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'suit', ?, ?, ?, ?, ?, ?, ?)"
		);
		session.run('e2eTokAnna1', ANNA, now, now);
		failedJob = Number(
			job.run(ANNA, 'e2eTokAnna1', 'failed', 3, 'deadline passed', null, null, now, now).lastInsertRowid
		);
		session.run('e2eTokBoris1', BORIS, now, now);
		doneJob = Number(
			job.run(BORIS, 'e2eTokBoris1', 'done', 1, null, 'boris_7001002_1_by_sticker_kiosk_bot', now, now, now)
				.lastInsertRowid
		);
		db.prepare(
			"INSERT INTO api_usage (job_id, ts, kind, provider, model, est_cost_usd, ok, stage, images) VALUES (?, ?, 'image', 'gemini', 'm', 0.5, 1, 'sheet', 1)"
		).run(doneJob, now);
	});
}

/** Twelve sticker files in a session folder, as a delivered job leaves them (the console shows them). */
async function plantStickers(sessionToken: string): Promise<void> {
	const dir = path.join(DATA_DIR, 'sessions', sessionToken, 'stickers');
	mkdirSync(dir, { recursive: true });
	for (let n = 1; n <= 12; n++) {
		const png = await sharp({
			create: { width: 512, height: 512, channels: 4, background: { r: 20 * n, g: 120, b: 200, alpha: 1 } }
		})
			.png()
			.toBuffer();
		writeFileSync(path.join(dir, `sticker_${n}.png`), png);
	}
}

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
	await page.goto('/console/login');
	await page.getByLabel('Username').fill(who.username);
	await page.getByLabel('Password').fill(who.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
}

async function newSignedInPage(browser: Browser, who: { username: string; password: string }): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await signIn(page, who);
	return page;
}

test.describe.serial('operator console', () => {
	let page: Page;

	test.beforeAll(async ({ browser }) => {
		// Specs share one product per run and others may have signed in first (they create an
		// operator); this spec proves the first run, so it brings back the state of "no operator yet".
		withDb((db) => {
			db.prepare('DELETE FROM operator_sessions').run();
			db.prepare('DELETE FROM api_tokens').run();
			db.prepare('DELETE FROM operators').run();
		});
		// The web process printed its own one-time link; this run plants a known token's hash instead.
		withDb((db) => {
			const value = JSON.stringify({
				hash: createHash('sha256').update(SETUP_TOKEN).digest('hex'),
				created_at: new Date().toISOString()
			});
			db.prepare(
				"INSERT INTO settings (key, value, updated_at) VALUES ('console_setup_token', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
			).run(value, new Date().toISOString());
		});
		seedGuests();
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
		await page.goto('/console');
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
		await expect(page.getByText('vera can now sign in as viewer.')).toBeVisible();
		await expect(page.locator('tr[data-operator="vera"] td.role')).toHaveText('viewer');
		expect(JSON.parse(lastAudit('add_operator')!.details!)).toEqual({ username: 'vera', role: 'viewer' });
	});

	test('the Live page updates without a reload when a job changes in the database', async () => {
		await page.goto('/console');
		await page.evaluate(() => ((window as unknown as { stayedHere: boolean }).stayedHere = true));
		const row = page.locator(`tr[data-job="${doneJob}"]`);
		await expect(row).toContainText('done');
		withDb((db) =>
			db
				.prepare("UPDATE jobs SET status = 'failed', error = 'changed by hand', updated_at = ? WHERE job_id = ?")
				.run(new Date().toISOString(), doneJob)
		);
		await expect(row).toContainText('failed', { timeout: 10_000 });
		await expect(row).toContainText('changed by hand');
		expect(await page.evaluate(() => (window as unknown as { stayedHere?: boolean }).stayedHere)).toBe(true);
		withDb((db) =>
			db
				.prepare("UPDATE jobs SET status = 'done', error = NULL, updated_at = ? WHERE job_id = ?")
				.run(new Date().toISOString(), doneJob)
		);
		await expect(row).toContainText('done', { timeout: 10_000 });
	});

	test('Pause and Resume from the Live page, each audited with the operator and IP', async () => {
		await page.getByLabel('Reason for the pause').fill('e2e check');
		await page.getByRole('button', { name: 'Pause', exact: true }).click();
		await page.getByRole('button', { name: 'Yes, pause everything' }).click();
		await expect(page.getByRole('status', { name: 'Maintenance' })).toContainText('Paused');
		expect(lastAudit('pause')).toMatchObject({
			actor: 'olga',
			ip: expect.stringMatching(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/)
		});
		// Public /health says "paused" and nothing more; the reason is for operators only.
		const health = await page.request.get('/health');
		expect(await health.json()).toEqual({ status: 'paused', worker: { alive: expect.any(Boolean) }, demo: true });
		expect(await page.request.get('/health').then((r) => r.text())).not.toContain('e2e check');
		await page.getByRole('link', { name: 'Health' }).click();
		const service = page.getByRole('region', { name: 'Service' });
		await expect(service).toContainText('paused by an operator');
		await expect(service).toContainText('e2e check');
		await page.getByRole('link', { name: 'Live' }).click();

		await page.getByRole('button', { name: 'Resume' }).click();
		await expect(page.getByRole('region', { name: 'Maintenance' })).toContainText('Running');
		expect(lastAudit('resume')?.actor).toBe('olga');
	});

	test('Guests: search, grant an extra pack', async () => {
		await page.goto('/console/guests');
		await page.getByRole('searchbox').fill('@anna_e2e');
		const anna = page.locator(`tr[data-guest="${ANNA}"]`);
		await expect(anna).toBeVisible();
		await expect(page.locator(`tr[data-guest="${BORIS}"]`)).toHaveCount(0);
		await anna.getByRole('button', { name: 'Grant extra pack' }).click();
		await expect(anna).toContainText('Now 1 extra.');
		expect(lastAudit('grant_extra_pack')).toMatchObject({ actor: 'olga', telegram_user_id: ANNA });
		expect(
			withDb((db) => db.prepare('SELECT extra_packs_allowed AS n FROM users WHERE telegram_user_id = ?').get(ANNA))
		).toEqual({ n: 1 });
	});

	test('Job page: retry a failed job', async () => {
		await page.goto(`/console/jobs/${failedJob}`);
		await expect(page.getByText('Last error: deadline passed')).toBeVisible();
		await page.getByRole('button', { name: 'Retry job' }).click();
		await page.getByRole('button', { name: 'Yes, queue it again' }).click();
		await expect.poll(() => lastAudit('retry_job')?.job_id).toBe(failedJob);
		expect(lastAudit('retry_job')?.actor).toBe('olga');
		const job = withDb((db) => db.prepare('SELECT error, created_at FROM jobs WHERE job_id = ?').get(failedJob)) as {
			error: string | null;
			created_at: string;
		};
		expect(job.error === null || !job.error.includes('deadline passed')).toBe(true);
	});

	test('Live shows each provider’s health and the queue; the Job page shows sticker verdicts and the guest’s messages', async () => {
		// A failed call of no job (as a model check or a redraw leaves), so the job's own spend stays as seeded.
		withDb((db) => {
			const now = new Date().toISOString();
			db.prepare(
				"INSERT INTO api_usage (job_id, ts, kind, provider, model, est_cost_usd, ok, http_status, error, stage, images) VALUES (NULL, ?, 'image', 'gemini', 'm', 0, 0, 503, 'HTTP 503 e2e', 'sheet', 0)"
			).run(now);
			db.prepare(
				"INSERT INTO bot_messages (telegram_user_id, direction, kind, text, at) VALUES (?, 'out', 'text', 'Your stickers are ready (e2e)', ?)"
			).run(BORIS, now);
			db.prepare(
				"INSERT INTO guest_notices (job_id, telegram_user_id, kind, text_key, state, attempts, next_attempt_at, created_at, sent_at, message_id, error) VALUES (?, ?, 'generating', 'generating', 'sent', 2, ?, ?, ?, 5, NULL)"
			).run(doneJob, BORIS, now, now, now);
		});
		const debug = path.join(DATA_DIR, 'debug_sheets');
		mkdirSync(debug, { recursive: true });
		const local = (n: number, ok: boolean) => ({
			n,
			ok,
			faces: ok ? 1 : 0,
			coverage: 0.4,
			reasons: ok ? [] : ['no face'],
			regenerated: !ok
		});
		const review = (n: number, ok: boolean) => ({
			n,
			ok,
			likeness: ok ? 0.8 : 0.2,
			onePerson: true,
			cropped: false,
			notes: ok ? [] : ['does not look like the anchor'],
			regenerated: !ok
		});
		writeFileSync(
			path.join(debug, `job${doneJob}_consistency.json`),
			JSON.stringify({ jobId: doneJob, stickers: [local(1, true), local(2, false)] })
		);
		writeFileSync(
			path.join(debug, `job${doneJob}_likeness.json`),
			JSON.stringify({ jobId: doneJob, pack: { stickers: [review(1, true), review(2, false)] } })
		);

		await page.goto('/console');
		const providers = page.getByRole('region', { name: 'Image providers' });
		await expect(providers.getByTestId('queue-pause')).toContainText('running');
		const gemini = providers.getByRole('row', { name: /gemini/ });
		await expect(gemini).toContainText('failing');
		await expect(gemini).toContainText('HTTP 503 e2e');
		await expect(gemini).toContainText('1 of 2 calls');

		await page.goto(`/console/jobs/${doneJob}`);
		const verdicts = page.getByRole('table', { name: 'Sticker verdicts' });
		await expect(verdicts.getByRole('row')).toHaveCount(3);
		await expect(verdicts.getByRole('row', { name: /does not look like the anchor/ })).toContainText('20 %');
		await expect(page.getByRole('table', { name: 'Guest messages' })).toContainText('Your stickers are ready (e2e)');
		const notice = page.getByRole('table', { name: 'Guest notices' }).getByRole('row', { name: /Generating/ });
		await expect(notice).toContainText('sent');
		await expect(notice.getByRole('cell').nth(2)).toHaveText('2');
	});

	test('Job page: redraw one sticker of a delivered pack — queued, run by the worker, its outcome shown live', async () => {
		await plantStickers('e2eTokBoris1');
		await page.goto(`/console/jobs/${doneJob}`);
		const second = page.locator('figure', { has: page.getByRole('img', { name: 'Sticker 2', exact: true }) });
		await second.getByRole('button', { name: 'Redraw' }).click();
		await second.getByRole('button', { name: 'Redraw #2' }).click();
		await expect(second.getByText('Sticker 2 is queued for a redraw.')).toBeVisible();
		expect(lastAudit('sticker_redraw')).toMatchObject({ actor: 'olga', job_id: doneJob, telegram_user_id: BORIS });
		expect(JSON.parse(lastAudit('sticker_redraw')!.details!)).toMatchObject({
			sticker: 2,
			packName: 'boris_7001002_1_by_sticker_kiosk_bot'
		});
		// The fixture has stickers but no face crop or anchor (as after PHOTO_TTL): the worker refuses with a sentence.
		const row = page.locator('tr', { hasText: '#2' }).filter({ hasText: 'olga' });
		await expect(row).toContainText('failed', { timeout: 15_000 });
		await expect(row).toContainText('photo and drawings are gone');
		await expect(
			page
				.locator('figure', { has: page.getByRole('img', { name: 'Sticker 5', exact: true }) })
				.getByRole('button', { name: 'Redraw' })
		).toBeEnabled();
	});

	test('Spend: set the balance; the estimate follows', async () => {
		await page.goto('/console/spend');
		await page.getByLabel('Real balance (USD)').fill('250');
		await page.getByRole('button', { name: 'Set balance' }).click();
		await expect(page.getByTestId('balance-estimate')).toHaveText('$250.00');
		expect(JSON.parse(lastAudit('set_balance_override')!.details!)).toMatchObject({ value: 250 });
	});

	test('Guests: reset a guest — backup first, rows gone, spend kept, old pack links audited', async () => {
		await page.goto('/console/guests');
		const boris = page.locator(`tr[data-guest="${BORIS}"]`);
		await boris.getByRole('button', { name: 'Reset guest' }).click();
		await boris.getByRole('button', { name: 'Yes, erase this guest’s visits and packs' }).click();
		// Plain words: visits and packs, not table names; success in the success colour.
		const notice = page.getByRole('status').filter({ hasText: /Guest Boris .* was reset/ });
		await expect(notice).toHaveText(
			/^Guest Boris .* was reset: 1 kiosk visit and 1 sticker pack erased, so they can start again\. A copy of the database was saved first \(app\.db\.bak-\d{8}-\d{6}-reset[^)]*\)\.$/
		);
		await expect(notice).toHaveClass(/\bok\b/);
		await expect(boris).toHaveCount(0);
		const audit = lastAudit('reset_user')!;
		const details = JSON.parse(audit.details!);
		expect(details.packLinks).toContain('https://t.me/addstickers/boris_7001002_1_by_sticker_kiosk_bot');
		expect(details.deleted).toEqual({ users: 1, sessions: 1, jobs: 1 });
		expect(existsSync(path.join(DATA_DIR, details.backup))).toBe(true);
		expect(readdirSync(DATA_DIR).some((f) => /^app\.db\.bak-\d{8}-\d{6}-reset/.test(f))).toBe(true);
		expect(withDb((db) => db.prepare('SELECT count(*) AS n FROM api_usage WHERE job_id = ?').get(doneJob))).toEqual({
			n: 1
		});
		await page.goto('/console/audit');
		await page.getByLabel('Action').selectOption('reset_user');
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(1);
		// The action in words, as the filter offers it; the stored name stays out of sight.
		await expect(page.getByLabel('Action').locator('option:checked')).toHaveText('guest reset');
		await expect(
			page.locator('tr[data-audit-action="reset_user"]').getByRole('cell', { name: 'guest reset' })
		).toBeVisible();
		// The guest-or-job box narrows the log once typing pauses.
		await page.getByLabel('Guest or job id').fill(String(ANNA));
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(0);
		await page.getByLabel('Guest or job id').fill(String(BORIS));
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(1);
	});

	test('a viewer sees everything but every action is off, in the UI and on the server', async ({
		browser,
		baseURL
	}) => {
		const viewer = await newSignedInPage(browser, VIEWER);
		await expect(viewer.getByText('You are signed in as a viewer')).toBeVisible();
		await expect(viewer.getByRole('button', { name: 'Pause', exact: true })).toBeDisabled();
		await viewer.goto('/console/guests');
		await expect(
			viewer.locator(`tr[data-guest="${ANNA}"]`).getByRole('button', { name: 'Grant extra pack' })
		).toBeDisabled();
		await viewer.goto('/console/operators');
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
		const auditBefore = withDb((db) => db.prepare('SELECT count(*) AS n FROM audit_log').get());
		for (const [procedure, input] of calls) {
			const response = await viewer.request.post(`/api/trpc/${procedure}`, {
				headers: { origin: baseURL!, 'content-type': 'application/json' },
				data: input ?? {}
			});
			expect(response.status(), procedure).toBe(403);
		}
		expect(withDb((db) => db.prepare('SELECT count(*) AS n FROM audit_log').get())).toEqual(auditBefore);
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
		expect(withDb((db) => db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'maintenance'").get())).toEqual({
			n: 0
		});
	});

	test("changing an operator's role signs them out; they sign in again with the new role", async ({ browser }) => {
		const before = await newSignedInPage(browser, VIEWER);
		await page.goto('/console/operators');
		await page.getByLabel('New role for vera').selectOption('operator');
		await page.getByRole('button', { name: 'Change role' }).click();
		await page.getByRole('button', { name: 'Yes, change and sign vera out' }).click();
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
		await page.goto('/console/operators');
		await page.getByRole('button', { name: 'Remove vera' }).click();
		await page.getByRole('button', { name: 'Yes, remove and sign out' }).click();
		await expect(page.locator('tr[data-operator="vera"]')).toHaveCount(0);
		expect(lastAudit('remove_operator')?.actor).toBe('olga');
		expect((await viewer.request.get('/api/trpc/auth.me')).status()).toBe(401);
		await viewer.goto('/console');
		await expect(viewer).toHaveURL(/\/console\/login/);
		await viewer.context().close();
	});
});
