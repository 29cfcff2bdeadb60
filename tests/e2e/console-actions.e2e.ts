import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { lastAudit, plantStickers, seedGuests } from './console-fixtures.ts';
import { expectToast } from './toasts.ts';
import { e2eDataDir, signInOwnOperator, withE2eDb } from './console-operator.ts';
import { expectWithinPhoneWidth, VIEWPORTS } from './page-check.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * The operator console's actions against the running product (built web + worker + emulator):
 * live updates without reload, pause and resume, a guest's extra pack and reset, a job's retry and
 * one sticker's redraw, the balance — each through the UI with its audit row. Fixtures are written
 * straight into the product's SQLite file, as another process would. Who may act is
 * console-access.e2e.ts.
 */
// Not a name with "action" in it: the Audit page's "Who" list names every operator, and its label
// would then match getByLabel('Action') too.
const ME = {
	username: 'oskar',
	password: 'operator password 456',
	setupToken: 'e2eactionssetuptokenabcdefghijk3'
};
const ANNA = 7_001_001;
const BORIS = 7_001_002;

let failedJob = 0;
let doneJob = 0;

test.describe.serial('operator console: actions', () => {
	let page: Page;

	test.beforeAll(async ({ browser }) => {
		({ failedJob, doneJob } = seedGuests({ anna: ANNA, boris: BORIS }, 'e2e'));
		// Boris's pack cost one call (the job's spend a reset keeps, one of the provider's two calls on Live).
		withE2eDb((db) =>
			db
				.prepare(
					"INSERT INTO api_usage (job_id, ts, kind, provider, model, est_cost_usd, ok, stage, images) VALUES (?, ?, 'image', 'gemini', 'm', 0.5, 1, 'sheet', 1)"
				)
				.run(doneJob, new Date().toISOString())
		);
		page = await (await browser.newContext()).newPage();
		// The owner on a fresh product; an operator when another spec made the owner first.
		await signInOwnOperator(page, { ...ME, role: 'operator' });
	});

	test('the Live page updates without a reload when a job changes in the database', async () => {
		await openConsolePage(page, '/console');
		await page.evaluate(() => ((window as unknown as { stayedHere: boolean }).stayedHere = true));
		const row = page.locator(`tr[data-job="${doneJob}"]`);
		await expect(row).toContainText('done');
		withE2eDb((db) =>
			db
				.prepare(
					"UPDATE jobs SET status = 'failed', error = 'NoFaceFound: changed by hand', updated_at = ? WHERE job_id = ?"
				)
				.run(new Date().toISOString(), doneJob)
		);
		await expect(row).toContainText('failed');
		// The cell follows the stored error, in the job page's words: the raw error stays off the table.
		await expect(row).toContainText('the picture had no face');
		await expect(row).not.toContainText('changed by hand');
		expect(await page.evaluate(() => (window as unknown as { stayedHere?: boolean }).stayedHere)).toBe(true);
		withE2eDb((db) =>
			db
				.prepare("UPDATE jobs SET status = 'done', error = NULL, updated_at = ? WHERE job_id = ?")
				.run(new Date().toISOString(), doneJob)
		);
		await expect(row).toContainText('done');
	});

	test('Pause and Resume from the Live page, each audited with the operator and IP', async () => {
		await page.getByLabel('Reason for the pause').fill('e2e check');
		await page.getByRole('button', { name: 'Pause', exact: true }).click();
		await page.getByRole('button', { name: 'Yes, pause everything' }).click();
		await expectToast(page, 'Paused.');
		await expect(page.getByRole('status', { name: 'Maintenance' })).toContainText('Paused');
		expect(lastAudit('pause')).toMatchObject({
			actor: ME.username,
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
		await expectToast(page, 'Resumed.');
		await expect(page.getByRole('region', { name: 'Maintenance' })).toContainText('Running');
		expect(lastAudit('resume')?.actor).toBe(ME.username);
	});

	test('Guests: search, grant an extra pack', async () => {
		await openConsolePage(page, '/console/guests');
		await page.getByRole('searchbox').fill('@anna_e2e');
		const anna = page.locator(`tr[data-guest="${ANNA}"]`);
		await expect(anna).toBeVisible();
		await expect(page.locator(`tr[data-guest="${BORIS}"]`)).toHaveCount(0);
		await anna.getByRole('button', { name: 'Grant extra pack' }).click();
		// The toast is away from the row, so it names the guest.
		await expectToast(page, 'Guest Anna (@anna_e2e) now has 1 extra pack.');
		expect(lastAudit('grant_extra_pack')).toMatchObject({ actor: ME.username, telegram_user_id: ANNA });
		expect(
			withE2eDb((db) => db.prepare('SELECT extra_packs_allowed AS n FROM users WHERE telegram_user_id = ?').get(ANNA))
		).toEqual({ n: 1 });
	});

	test('Job page: retry a failed job', async () => {
		await openConsolePage(page, `/console/jobs/${failedJob}`);
		// What went wrong leads the page, in words; the stored error waits folded in the debug details.
		await expect(page.getByTestId('job-headline')).toHaveText(
			'Failed: it took longer than the time limit, so it was stopped'
		);
		await expect(page.getByTestId('job-headline')).toHaveClass(/\bbad\b/);
		await expect(page.getByTestId('photo-to-link')).toHaveText('no link: the job failed');
		await expect(page.getByText('deadline passed')).toBeHidden();
		await page.getByText('Debug details').click();
		await expect(page.getByTestId('job-debug').getByText('deadline passed')).toBeVisible();
		await page.getByRole('button', { name: 'Retry job' }).click();
		await page.getByRole('button', { name: 'Yes, queue it again' }).click();
		await expectToast(page, `Job #${failedJob} is queued again.`);
		await expect.poll(() => lastAudit('retry_job')?.job_id).toBe(failedJob);
		expect(lastAudit('retry_job')?.actor).toBe(ME.username);
		const job = withE2eDb((db) => db.prepare('SELECT error, created_at FROM jobs WHERE job_id = ?').get(failedJob)) as {
			error: string | null;
			created_at: string;
		};
		expect(job.error === null || !job.error.includes('deadline passed')).toBe(true);
	});

	test('Live shows each provider’s health and the queue; the Job page shows sticker verdicts and the guest’s messages', async () => {
		// A failed call of no job (as a model check or a redraw leaves), so the job's own spend stays as seeded.
		withE2eDb((db) => {
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
		const debug = path.join(e2eDataDir(), 'debug_sheets');
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

		await openConsolePage(page, '/console');
		const providers = page.getByRole('region', { name: 'Image providers' });
		await expect(providers.getByTestId('queue-pause')).toContainText('running');
		const gemini = providers.getByRole('row', { name: /gemini/ });
		await expect(gemini).toContainText('failing');
		// The provider's answer in words, not its status code.
		await expect(gemini).toContainText('the provider had a fault on its side (e2e)');
		await expect(gemini).not.toContainText('503');
		await expect(gemini).toContainText('1 of 2 calls');

		await openConsolePage(page, `/console/jobs/${doneJob}`);
		await page.getByText('Debug details').click();
		await page.getByText('The guest’s chat and notices').click();
		const verdicts = page.getByRole('table', { name: 'Sticker verdicts' });
		await expect(verdicts.getByRole('row')).toHaveCount(3);
		await expect(verdicts.getByRole('row', { name: /does not look like the anchor/ })).toContainText('20 %');
		await expect(page.getByRole('table', { name: 'Guest messages' })).toContainText('Your stickers are ready (e2e)');
		const notice = page.getByRole('table', { name: 'Guest notices' }).getByRole('row', { name: /Generating/ });
		await expect(notice).toContainText('sent');
		await expect(notice.getByRole('cell').nth(2)).toHaveText('2');
	});

	test('Job page: what happened first, then the stickers, time and cost, stages; debug folded last', async () => {
		await plantStickers('e2eTokBoris1');
		await openConsolePage(page, `/console/jobs/${doneJob}`);
		const headline = page.getByTestId('job-headline');
		await expect(headline).toHaveText(/^Sent to Boris \(@boris_e2e\) at \d\d:\d\d$/);
		// Success in the success colour, never the danger one.
		await expect(headline).toHaveClass(/\bok\b/);
		await expect(page.getByRole('img', { name: 'Sticker 12', exact: true })).toBeVisible();
		await expect(page.getByTestId('photo-to-link')).toHaveText(/^\d+ s$/);
		await expect(page.getByTestId('job-cost')).toContainText('$0.50');
		await expect(page.getByTestId('job-attempts')).toHaveText('1');
		const stages = page.getByRole('region', { name: 'Stages' });
		await expect(stages.getByRole('listitem')).toHaveText([/^Photo received/, /^Link sent/]);
		// The debug half is folded: its ids and calls are there but out of sight until asked for.
		await expect(page.getByTestId('job-debug')).not.toHaveAttribute('open');
		await expect(page.getByRole('heading', { name: 'Ids and choices' })).toBeHidden();
		const top = async (l: Locator) => (await l.boundingBox())!.y;
		const order = [
			await top(headline),
			await top(page.getByRole('heading', { name: 'Stickers (12)' })),
			await top(page.getByTestId('photo-to-link')),
			await top(stages),
			await top(page.getByText('Debug details'))
		];
		expect(order).toEqual([...order].sort((a, b) => a - b));
	});

	test('Job page: redraw one sticker of a delivered pack — queued, run by the worker, its outcome shown live', async () => {
		await plantStickers('e2eTokBoris1');
		await openConsolePage(page, `/console/jobs/${doneJob}`);
		const second = page.locator('figure', { has: page.getByRole('img', { name: 'Sticker 2', exact: true }) });
		await second.getByRole('button', { name: 'Redraw' }).click();
		await second.getByRole('button', { name: 'Redraw #2' }).click();
		await expectToast(page, 'Sticker 2 is queued for a redraw.');
		expect(lastAudit('sticker_redraw')).toMatchObject({ actor: ME.username, job_id: doneJob, telegram_user_id: BORIS });
		expect(JSON.parse(lastAudit('sticker_redraw')!.details!)).toMatchObject({
			sticker: 2,
			packName: 'boris_7001002_1_by_sticker_kiosk_bot'
		});
		// The fixture has stickers but no face crop or anchor (as after PHOTO_TTL): the worker refuses with a sentence.
		const row = page.locator('tr', { hasText: '#2' }).filter({ hasText: ME.username });
		await expect(row).toContainText('failed', { timeout: 15_000 });
		await expect(row).toContainText('photo and drawings are gone');
		await expect(
			page
				.locator('figure', { has: page.getByRole('img', { name: 'Sticker 5', exact: true }) })
				.getByRole('button', { name: 'Redraw' })
		).toBeEnabled();
	});

	test('Health: a failed backup newer than the good one, in words — no path, no raw error', async () => {
		const stored = JSON.stringify({
			at: new Date().toISOString(),
			error: "ENOSPC: no space left on device, write '/srv/kiosk/backups/app.db.tmp'"
		});
		const write = (value: string | null) =>
			withE2eDb((db) =>
				value === null
					? db.prepare("DELETE FROM settings WHERE key = 'last_backup_failure'").run()
					: db
							.prepare(
								"INSERT INTO settings (key, value, updated_at) VALUES ('last_backup_failure', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
							)
							.run(value, new Date().toISOString())
			);
		write(stored);
		try {
			await openConsolePage(page, '/console/health');
			const failure = page.getByTestId('last-backup-failure');
			await expect(failure).toContainText(/^The backup at \d\d:\d\d failed: the disk was full — /);
			await expect(failure).toHaveClass(/warn/);
			await expect(page.locator('main')).not.toContainText('ENOSPC');
			await expect(page.locator('main')).not.toContainText('/srv/kiosk');
		} finally {
			write(null);
		}
	});

	test('Spend: set the balance; the estimate follows', async () => {
		await openConsolePage(page, '/console/spend');
		const balance = page.getByLabel('Real balance (USD)');
		// Not a number: the form says so beside its button (it once said the server had a problem).
		await balance.fill('lots');
		await page.getByRole('button', { name: 'Set balance' }).click();
		await expect(page.getByRole('alert')).toHaveText('Enter the balance as a number, e.g. 250.00.');
		await balance.fill('250');
		await balance.press('Enter');
		await expectToast(page, 'Balance saved.');
		await expect(page.getByRole('alert')).toHaveCount(0);
		await expect(page.getByTestId('balance-estimate')).toHaveText('$250.00');
		expect(JSON.parse(lastAudit('set_balance_override')!.details!)).toMatchObject({ value: 250 });
	});

	test('Guests: reset a guest — backup first, rows gone, spend kept, old pack links audited', async () => {
		await openConsolePage(page, '/console/guests');
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
		expect(existsSync(path.join(e2eDataDir(), details.backup))).toBe(true);
		expect(readdirSync(e2eDataDir()).some((f) => /^app\.db\.bak-\d{8}-\d{6}-reset/.test(f))).toBe(true);
		expect(withE2eDb((db) => db.prepare('SELECT count(*) AS n FROM api_usage WHERE job_id = ?').get(doneJob))).toEqual({
			n: 1
		});
		await openConsolePage(page, '/console/audit');
		await page.getByLabel('Action').selectOption('reset_user');
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(1);
		// The action in words, as the filter offers it; the stored name stays out of sight.
		await expect(page.getByLabel('Action').locator('option:checked')).toHaveText('guest reset');
		await expect(
			page.locator('tr[data-audit-action="reset_user"]').getByRole('cell', { name: 'guest reset' })
		).toBeVisible();
		// Its details in words too: what was erased, not the stored record with its file name.
		const detailWords = page.locator('tr[data-audit-action="reset_user"] .details');
		await expect(detailWords).toHaveText(
			/^1 kiosk visit and 1 sticker pack erased; .*a copy of the database was saved first$/
		);
		await expect(detailWords).not.toContainText('{');
		await expect(detailWords).not.toContainText('bak-');
		// The guest-or-job box narrows the log once typing pauses.
		await page.getByLabel('Guest or job id').fill(String(ANNA));
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(0);
		await page.getByLabel('Guest or job id').fill(String(BORIS));
		await expect(page.locator('tr[data-audit-action="reset_user"]')).toHaveCount(1);
		// Clear filters empties the three fields at once.
		await page.getByRole('button', { name: 'Clear filters' }).click();
		await expect(page.getByLabel('Action')).toHaveValue('');
		await expect(page.getByLabel('Guest or job id')).toHaveValue('');
		await expect(page.getByRole('button', { name: 'Clear filters' })).toBeHidden();

		// On a 390 px phone the row stacks: the action and when above the details, all on the screen.
		const laptop = page.viewportSize()!;
		await page.setViewportSize(VIEWPORTS[1]);
		try {
			const row = page.locator('tr[data-audit-action="reset_user"]');
			await expect(row.getByText('guest reset', { exact: true }).filter({ visible: true })).toHaveCount(1);
			await expect(page.getByRole('columnheader', { name: 'Action' })).toBeHidden();
			await expectWithinPhoneWidth(page, detailWords);
		} finally {
			await page.setViewportSize(laptop);
		}
	});
});
