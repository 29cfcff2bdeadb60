import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';
import { checkPage } from './page-check.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * Every page an operator or a guest opens, checked with axe (WCAG 2.1 A and AA; serious and
 * critical findings fail) at 1366 px and 390 px, with a full-page screenshot at each width in the
 * test's results (tests/e2e/page-check.ts). The owner signs in (Settings is theirs only) and the
 * pages show seeded rows — a guest with a delivered job, an event, a lead, a broadcast, a kiosk —
 * so tables, badges and cards are checked, not empty states.
 *
 * SQLite project only (playwright.config.ts): the pages are the same on PostgreSQL + S3, and a
 * second run would double this spec's few minutes for nothing new.
 */
const SETUP_TOKEN = 'e2ea11ysetuptokenabcdefghijklmn7';
const OWNER = { username: 'ayla_a11y', password: 'a11y owner password 1', role: 'owner' as const };
const RUN = Date.now().toString(36);
// Its own range (messages.e2e expects 7002999 to be nobody; console-keyboard uses 7_003_100…).
const GUEST = 7_005_000 + Math.floor(Math.random() * 1000);

interface Seeded {
	jobId: number;
	eventId: number;
	leadId: number;
	broadcastId: number;
	sentBroadcastId: number;
}

/** Rows as the product leaves them, written straight into its SQLite file as another process would. */
function seed(): Seeded {
	return withE2eDb((db) => {
		const now = new Date().toISOString();
		const eventId = Number(
			db
				.prepare(
					"INSERT INTO events (name, state, title_template, created_at, updated_at) VALUES (?, 'live', '{pack_title}', ?, ?)"
				)
				.run(`Accessible gala ${RUN}`, now, now).lastInsertRowid
		);
		const kioskId = Number(
			db
				.prepare('INSERT INTO kiosks (name, key_hash, created_at, last_seen_at) VALUES (?, ?, ?, ?)')
				.run(`a11y-kiosk-${RUN}`, `a11y-key-${RUN}`, now, now).lastInsertRowid
		);
		// A revoked kiosk too: its row is drawn apart from the live ones.
		db.prepare('INSERT INTO kiosks (name, key_hash, created_at, revoked_at) VALUES (?, ?, ?, ?)').run(
			`a11y-old-kiosk-${RUN}`,
			`a11y-old-key-${RUN}`,
			now,
			now
		);
		const pack = `a11y_${GUEST}_1_by_sticker_kiosk_bot`;
		db.prepare(
			'INSERT INTO users (telegram_user_id, first_name, username, consented_at, pack_name, pack_link, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'
		).run(GUEST, 'Aida', `aida_${RUN}`, now, pack, `https://t.me/addstickers/${pack}`, now);
		const token = `a11ytok${RUN}`;
		db.prepare(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'suit', 'done', ?, ?)"
		).run(token, GUEST, now, now);
		db.prepare('INSERT INTO kiosk_sessions (session_token, kiosk_id, created_at, event_id) VALUES (?, ?, ?, ?)').run(
			token,
			kioskId,
			now,
			eventId
		);
		const message = db.prepare(
			'INSERT INTO bot_messages (telegram_user_id, direction, kind, text, message_id, at) VALUES (?, ?, ?, ?, ?, ?)'
		);
		message.run(GUEST, 'in', 'command', '/start', 1, now);
		message.run(GUEST, 'out', 'text', 'Your stickers are ready', 2, now);
		const jobId = Number(
			db
				.prepare(
					"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, pack_name, link_sent_at, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'suit', 'done', 1, ?, ?, ?, ?)"
				)
				.run(GUEST, token, pack, now, now, now).lastInsertRowid
		);
		// The job was made at the event: the summary's chart has a bar (Live's and Messages' too).
		db.prepare(
			"INSERT INTO job_snapshots (job_id, event_id, catalogue_version, outfit_json, created_at) VALUES (?, ?, 1, '{}', ?)"
		).run(jobId, eventId, now);
		db.prepare(
			'INSERT INTO message_activity (day, incoming, outgoing, guests) VALUES (?, 1, 1, 1) ON CONFLICT(day) DO NOTHING'
		).run(new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10));
		// Two hours ago: outside the providers' 15-minute error window other specs count calls in.
		db.prepare(
			"INSERT INTO api_usage (job_id, ts, kind, provider, model, est_cost_usd, ok, stage, images) VALUES (?, ?, 'image', 'gemini', 'm', 0.5, 1, 'sheet', 1)"
		).run(jobId, new Date(Date.now() - 2 * 3600_000).toISOString());
		const leadId = Number(
			db
				.prepare(
					"INSERT INTO leads (request_id, created_at, submitted_at, name, telegram, event_date, guests, comment, locale, status) VALUES (?, ?, ?, ?, '@a11y_lead', '2027-05-01', '120', 'A wedding', 'en', 'new')"
				)
				.run(`a11y-${RUN}`, now, now, `Lead ${RUN}`).lastInsertRowid
		);
		const broadcastId = Number(
			db
				.prepare(
					"INSERT INTO broadcasts (event_id, text, state, created_by, created_at, updated_at) VALUES (?, ?, 'draft', 'console:ayla_a11y', ?, ?)"
				)
				.run(eventId, `Thank you for coming, ${RUN}!`, now, now).lastInsertRowid
		);
		// A broadcast that has run: its results chart (green sent, red failed).
		const sentBroadcastId = Number(
			db
				.prepare(
					"INSERT INTO broadcasts (event_id, text, state, created_by, created_at, updated_at, started_at, finished_at) VALUES (?, ?, 'done', 'console:ayla_a11y', ?, ?, ?, ?)"
				)
				.run(eventId, `Photos are ready, ${RUN}!`, now, now, now, now).lastInsertRowid
		);
		const recipient = db.prepare(
			'INSERT INTO broadcast_recipients (broadcast_id, telegram_user_id, state, attempts, error, updated_at) VALUES (?, ?, ?, 1, ?, ?)'
		);
		recipient.run(sentBroadcastId, GUEST, 'sent', null, now);
		recipient.run(sentBroadcastId, GUEST + 1, 'failed', 'chat not found', now);
		return { jobId, eventId, leadId, broadcastId, sentBroadcastId };
	});
}

test.describe('public pages pass axe at both widths', () => {
	for (const [name, url] of [
		['landing', '/'],
		['landing-en', '/en'],
		['start', '/start'],
		['kiosk', '/kiosk'],
		['console-login', '/console/login'],
		['console-setup', '/console/setup']
	] as const)
		test(name, async ({ page }, testInfo) => {
			await page.goto(url);
			await expect(page.locator('h1').first()).toBeVisible();
			await checkPage(page, testInfo, name);
		});
});

test.describe('console pages pass axe at both widths, signed in as the owner', () => {
	// One sign-in for all pages: its cookie is kept in a file each page's browser context starts from.
	// Beside this run's data folder (its name is per run and helper), not in it: the product owns that.
	const signedIn = `${path.resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data')}-a11y-owner-state.json`;
	let seeded: Seeded;
	test.use({ storageState: signedIn });
	test.beforeAll(async ({ browser }) => {
		seeded = seed();
		const context = await browser.newContext({ storageState: undefined });
		const page = await context.newPage();
		await signInOwnOperator(page, { ...OWNER, setupToken: SETUP_TOKEN });
		await context.storageState({ path: signedIn });
		await context.close();
	});

	const pages: [string, () => string][] = [
		['live', () => '/console'],
		['guests', () => '/console/guests'],
		['guest-messages', () => `/console/messages?guest=${GUEST}`],
		['messages', () => '/console/messages'],
		['job', () => `/console/jobs/${seeded.jobId}`],
		['spend', () => '/console/spend'],
		['leads', () => '/console/leads'],
		['broadcasts', () => '/console/broadcasts'],
		['broadcast', () => `/console/broadcasts/${seeded.broadcastId}`],
		['broadcast-results', () => `/console/broadcasts/${seeded.sentBroadcastId}`],
		['events', () => '/console/events'],
		['event', () => `/console/events/${seeded.eventId}`],
		['event-summary', () => `/console/events/${seeded.eventId}/summary`],
		['kiosks', () => '/console/kiosks'],
		['audit', () => '/console/audit'],
		['health', () => '/console/health'],
		['logs', () => '/console/logs'],
		['operators', () => '/console/operators'],
		['api-tokens', () => '/console/api-tokens'],
		['settings', () => '/console/settings'],
		['profile', () => '/console/profile']
	];
	for (const [name, url] of pages)
		test(name, async ({ page }, testInfo) => {
			await page.goto(url());
			await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
			await checkPage(page, testInfo, name);
		});

	test('job with its chat and debug details unfolded', async ({ page }, testInfo) => {
		// Folded parts are out of axe's sight until opened: the ids, the tables of calls and messages.
		await openConsolePage(page, `/console/jobs/${seeded.jobId}`);
		await page.getByText('The guest’s chat and notices').click();
		await page.getByText('Debug details').click();
		await expect(page.getByRole('heading', { name: 'Ids and choices' })).toBeVisible();
		await expect(page.getByRole('table', { name: 'Guest messages' })).toBeVisible();
		await checkPage(page, testInfo, 'job-unfolded');
	});

	test('lead card', async ({ page }, testInfo) => {
		// A lead opens as a card on the Leads page.
		await openConsolePage(page, '/console/leads');
		await page.getByRole('button', { name: `#${seeded.leadId}` }).click();
		await expect(page.getByRole('region', { name: `Lead #${seeded.leadId}` })).toBeVisible();
		await checkPage(page, testInfo, 'lead');
	});
});
