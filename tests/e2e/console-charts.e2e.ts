import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';
import { openConsolePage } from './console-ready.ts';
import { expectNoSidewaysScroll } from './page-check.ts';

/**
 * The console's one bar chart (charts/BarChart.svelte) on Live, Messages, an event's summary and a
 * broadcast: at 1366 px and on a 390 px phone every bar of a non-zero value has a width and a
 * height (the old horizontal bars shrank to 0 px on a phone), the bars' sentences are a list a
 * screen reader reads, the keyboard shows a bar's tooltip, success is green and never the danger
 * red, and a chart with nothing to draw says so instead of drawing an empty frame.
 */
const VIEWER = {
	username: 'chandra_charts',
	password: 'charts viewer password 3',
	setupToken: 'e2echartssetuptokenabcdefghijkl3'
};
const RUN = Date.now().toString(36);
const HOUR = 3_600_000;
const GUEST = 7_006_000 + Math.floor(Math.random() * 1000);
// The tokens' colours as the browser computes them (base.css): the chart may only use these.
const COLOURS = {
	count: 'rgb(34, 83, 158)',
	ok: 'rgb(24, 115, 63)',
	warn: 'rgb(138, 90, 18)',
	bad: 'rgb(180, 40, 40)'
};
const WIDTHS = [
	{ width: 1366, height: 900 },
	{ width: 390, height: 844 }
];

interface Seeded {
	eventId: number;
	emptyEventId: number;
	broadcastId: number;
	draftId: number;
	/** The hour (ISO) of the packs planted for the Live chart. */
	liveHour: string;
	/** A day of the Messages chart only this spec writes. */
	messageDay: string;
}

/** Delivered packs in two hours of one event, its activity, and a broadcast that has run. */
function seed(): Seeded {
	return withE2eDb((db) => {
		const now = Date.now();
		const iso = (ms: number) => new Date(ms).toISOString();
		const hourStart = Math.floor(now / HOUR) * HOUR;
		const event = (name: string) =>
			Number(
				db
					.prepare(
						"INSERT INTO events (name, state, title_template, created_at, updated_at) VALUES (?, 'live', '{pack_title}', ?, ?)"
					)
					.run(name, iso(now), iso(now)).lastInsertRowid
			);
		const eventId = event(`Chart gala ${RUN}`);
		const emptyEventId = event(`Quiet gala ${RUN}`);
		db.prepare('INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (?, ?, ?, ?)').run(
			GUEST,
			'Chandra',
			iso(now),
			iso(now)
		);
		// One pack three hours ago, two in the hour before this one (a zero hour between them).
		[3, 1, 1].forEach((hoursAgo, i) => {
			const at = iso(hourStart - hoursAgo * HOUR + 10 * 60_000);
			const token = `charts${RUN}${i}`;
			db.prepare(
				"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'suit', 'done', ?, ?)"
			).run(token, GUEST, at, at);
			const jobId = Number(
				db
					.prepare(
						"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, pack_name, link_sent_at, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'suit', 'done', 1, ?, ?, ?, ?)"
					)
					.run(GUEST, token, `charts_${RUN}_${i}_by_sticker_kiosk_bot`, at, at, at).lastInsertRowid
			);
			db.prepare(
				"INSERT INTO job_snapshots (job_id, event_id, catalogue_version, outfit_json, created_at) VALUES (?, ?, 1, '{}', ?)"
			).run(jobId, eventId, at);
		});
		const messageDay = iso(now - 5 * 86_400_000).slice(0, 10);
		db.prepare(
			'INSERT INTO message_activity (day, incoming, outgoing, guests) VALUES (?, 6, 4, 3) ON CONFLICT(day) DO UPDATE SET incoming = 6, outgoing = 4, guests = 3'
		).run(messageDay);
		const broadcast = (state: string) =>
			Number(
				db
					.prepare(
						'INSERT INTO broadcasts (event_id, text, state, created_by, created_at, updated_at, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'
					)
					.run(
						eventId,
						`Charts ${state} ${RUN}`,
						state,
						'console:chandra_charts',
						iso(now),
						iso(now),
						state === 'done' ? iso(now) : null,
						state === 'done' ? iso(now) : null
					).lastInsertRowid
			);
		const broadcastId = broadcast('done');
		const recipient = db.prepare(
			'INSERT INTO broadcast_recipients (broadcast_id, telegram_user_id, state, attempts, error, updated_at) VALUES (?, ?, ?, 1, ?, ?)'
		);
		['sent', 'sent', 'sent', 'failed', 'blocked'].forEach((state, i) =>
			recipient.run(broadcastId, GUEST + 10 + i, state, state === 'failed' ? 'chat not found' : null, iso(now))
		);
		return {
			eventId,
			emptyEventId,
			broadcastId,
			draftId: broadcast('draft'),
			liveHour: iso(hourStart - HOUR),
			messageDay
		};
	});
}

let seeded: Seeded;
test.beforeAll(() => {
	seeded = seed();
});

test.beforeEach(async ({ page }) => {
	await signInOwnOperator(page, { ...VIEWER, role: 'viewer' });
});

/** The chart titled `title`: its keyboard group, its drawn bars and its list of sentences. */
function chartOf(page: Page, title: string) {
	return {
		group: page.getByRole('group', { name: `${title}. Arrow keys read the bars one by one.` }),
		bars: page.getByRole('group', { name: `${title}. Arrow keys` }).locator('.lc-bar'),
		sentences: page.getByRole('list', { name: title, exact: true }).getByRole('listitem')
	};
}

/** At both widths: the bar at `index` (a non-zero value) is drawn with a real width and height. */
async function expectDrawn(page: Page, bars: Locator, indexes: number[], label: string): Promise<void> {
	for (const size of WIDTHS) {
		await page.setViewportSize(size);
		for (const index of indexes) {
			await expect
				.poll(
					async () => {
						const box = await bars.nth(index).boundingBox();
						return box !== null && box.width >= 1 && box.height >= 1;
					},
					{ message: `${label}: bar ${index} at ${size.width} px` }
				)
				.toBe(true);
		}
		await expectNoSidewaysScroll(page, `${label} scrolls sideways at ${size.width} px`);
	}
}

const fillOf = (bar: Locator) => bar.evaluate((el) => getComputedStyle(el).fill);

test('Live: packs per hour, drawn at both widths, in the count colour, read by keyboard', async ({ page }) => {
	await openConsolePage(page, '/console');
	const chart = chartOf(page, 'Packs delivered per hour (last 12 hours)');
	await expect(chart.sentences).toHaveCount(12);
	await expect(chart.bars).toHaveCount(12);
	// The page names hours in the browser's time; find the hour the packs were planted in.
	const hour = await page.evaluate(
		(at) => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }),
		seeded.liveHour
	);
	const texts = await chart.sentences.allTextContents();
	const index = texts.findIndex((t) => t.endsWith(`in the hour from ${hour}`));
	expect(index, texts.join('\n')).toBeGreaterThanOrEqual(0);
	expect(Number(texts[index]!.split(' ')[0])).toBeGreaterThanOrEqual(2);
	await expectDrawn(page, chart.bars, [index], 'Live');
	expect(await fillOf(chart.bars.nth(index))).toBe(COLOURS.count);

	await chart.group.focus();
	await page.keyboard.press('Home');
	for (let i = 0; i < index; i++) await page.keyboard.press('ArrowRight');
	await expect(chart.group.locator('[aria-live="polite"]')).toHaveText(texts[index]!);
	await expect(page.locator('.lc-tooltip-root').getByText(texts[index]!)).toBeVisible();
});

test('Messages: a day’s bar is drawn at both widths and says its in, out and people', async ({ page }) => {
	await openConsolePage(page, '/console/messages');
	const chart = chartOf(page, 'Bot messages per day, in and out (UTC)');
	await expect(chart.sentences).toHaveCount(14);
	await expect(chart.bars).toHaveCount(14);
	const sentence = `${seeded.messageDay}: 6 in, 4 out, 3 people`;
	const texts = await chart.sentences.allTextContents();
	const index = texts.indexOf(sentence);
	expect(index, texts.join('\n')).toBeGreaterThanOrEqual(0);
	await expectDrawn(page, chart.bars, [index], 'Messages');
	expect(await fillOf(chart.bars.nth(index))).toBe(COLOURS.count);
	await chart.group.focus();
	await page.keyboard.press('Home');
	for (let i = 0; i < index; i++) await page.keyboard.press('ArrowRight');
	await expect(page.locator('.lc-tooltip-root').getByText(sentence)).toBeVisible();
});

test('an event’s summary: packs per hour with the empty hour between, and an event without packs says so', async ({
	page
}) => {
	await openConsolePage(page, `/console/events/${seeded.eventId}/summary`);
	const chart = chartOf(page, 'Packs per hour (UTC)');
	await expect(chart.sentences).toHaveCount(3);
	await expect(chart.bars).toHaveCount(3);
	await expect(chart.sentences.nth(0)).toHaveText(/: 1 packs$/);
	await expect(chart.sentences.nth(1)).toHaveText(/: 0 packs$/);
	await expect(chart.sentences.nth(2)).toHaveText(/: 2 packs$/);
	await expectDrawn(page, chart.bars, [0, 2], 'Summary');
	const [one, two] = [await chart.bars.nth(0).boundingBox(), await chart.bars.nth(2).boundingBox()];
	expect(two!.height).toBeGreaterThan(one!.height * 1.5);

	await openConsolePage(page, `/console/events/${seeded.emptyEventId}/summary`);
	await expect(page.getByText('No packs yet.')).toBeVisible();
	await expect(page.getByRole('group', { name: /Arrow keys/ })).toHaveCount(0);
});

test('a broadcast’s results: sent in green, failures in red, values written, a draft says nothing sent yet', async ({
	page
}) => {
	await openConsolePage(page, `/console/broadcasts/${seeded.broadcastId}`);
	const title = `Results of broadcast #${seeded.broadcastId}`;
	const chart = chartOf(page, title);
	await expect(chart.sentences).toHaveText([
		'Sent: 3',
		'Failed: 1',
		'Blocked the bot: 1',
		'Skipped: 0',
		'Still queued: 0',
		'Opted out since: 0'
	]);
	await expect(chart.bars).toHaveCount(6);
	await expectDrawn(page, chart.bars, [0, 1, 2], 'Broadcast');
	// Horizontal bars on a phone: the longest is a real bar, not a sliver.
	expect((await chart.bars.nth(0).boundingBox())!.width).toBeGreaterThan(60);
	expect(await fillOf(chart.bars.nth(0))).toBe(COLOURS.ok);
	expect(await fillOf(chart.bars.nth(1))).toBe(COLOURS.bad);
	expect(await fillOf(chart.bars.nth(2))).toBe(COLOURS.warn);
	// The numbers are written beside the bars for whoever reads without a pointer.
	await expect(chart.group.locator('.console-bars-value').first()).toHaveText('3');

	await chart.group.focus();
	await expect(chart.group.locator('[aria-live="polite"]')).toHaveText('Opted out since: 0');
	await page.keyboard.press('Home');
	await expect(chart.group.locator('[aria-live="polite"]')).toHaveText('Sent: 3');
	await expect(page.locator('.lc-tooltip-root').getByText('Sent: 3')).toBeVisible();

	await openConsolePage(page, `/console/broadcasts/${seeded.draftId}`);
	await expect(page.getByText('Nothing sent yet.')).toBeVisible();
	await expect(page.getByRole('group', { name: /Arrow keys/ })).toHaveCount(0);
});
