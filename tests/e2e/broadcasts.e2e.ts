import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { hash, type Options } from '@node-rs/argon2';
import { E2E_EMULATOR_PORT } from '../../playwright.config.ts';
import { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { signInOwnOperator, withE2eDb } from './console-operator.ts';
import { expectToast } from './toasts.ts';
import { openConsolePage } from './console-ready.ts';

/**
 * Broadcasts against the running product: an operator composes a broadcast for one event, checks
 * how many guests said yes to news, the preview and the audience, is refused a test until their own
 * Telegram chat has proven itself (the chat sends the bot the code the profile page shows),
 * test-sends it there, sends it; the emulator shows it to that event's guests who said yes to news
 * only (a guest who only consented to the selfie gets nothing); one guest presses "no more messages" and the
 * next broadcast leaves them out; progress and results move on the page by themselves.
 */
const SETUP_TOKEN = 'e2ebroadcastssetuptokenabcdefgh5';
const OPERATOR = { username: 'bahrom_broadcasts', password: 'operator password 789' };
const control = createControlClient(`http://127.0.0.1:${E2E_EMULATOR_PORT}`);
const RUN = Date.now().toString(36);

/** Guests as the guest flow leaves them: users row (consent or not), a session at the event's kiosk, their answer to the news question. */
function plantGuests(
	eventName: string,
	guests: { id: number; consented: boolean; inEvent: boolean; news: 'in' | 'asked' | null }[]
): number {
	return withE2eDb((db) => {
		const now = new Date().toISOString();
		const event = db
			.prepare(
				"INSERT INTO events (name, state, title_template, created_at, updated_at) VALUES (?, 'live', '{pack_title}', ?, ?)"
			)
			.run(eventName, now, now);
		const eventId = Number(event.lastInsertRowid);
		const kiosk = db
			.prepare('INSERT INTO kiosks (name, key_hash, created_at) VALUES (?, ?, ?)')
			.run(`bcast-kiosk-${RUN}-${eventId}`, `bcast-key-${RUN}-${eventId}`, now);
		for (const guest of guests) {
			db.prepare('INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (?, ?, ?, ?)').run(
				guest.id,
				`Guest ${guest.id}`,
				guest.consented ? now : null,
				now
			);
			const token = `bcaste2e${guest.id}`;
			db.prepare(
				"INSERT INTO sessions (session_token, telegram_user_id, status, created_at, updated_at) VALUES (?, ?, 'consented', ?, ?)"
			).run(token, guest.id, now, now);
			db.prepare('INSERT INTO kiosk_sessions (session_token, kiosk_id, created_at, event_id) VALUES (?, ?, ?, ?)').run(
				token,
				Number(kiosk.lastInsertRowid),
				now,
				guest.inEvent ? eventId : 1
			);
			if (guest.news) {
				const answer = guest.news === 'in' ? ["'button'", '?'] : ['NULL', 'NULL'];
				db.prepare(
					`INSERT INTO news_opt_ins (telegram_user_id, state, wording_version, locale, via, asked_at, answered_at, updated_at) VALUES (?, ?, 'news-question-1', 'en', ${answer[0]}, ?, ${answer[1]}, ?)`
				).run(...[guest.id, guest.news, now, ...(guest.news === 'in' ? [now] : []), now]);
			}
		}
		return eventId;
	});
}

async function signInOperator(page: Parameters<typeof signInOwnOperator>[0]): Promise<void> {
	const operators = withE2eDb((db) => (db.prepare('SELECT count(*) AS n FROM operators').get() as { n: number }).n);
	if (operators > 0) {
		// Broadcasting is an operator's action: this spec's account is an operator, not the default viewer.
		const passwordHash = await hash(OPERATOR.password, {
			algorithm: 2 as Options['algorithm'],
			memoryCost: 19_456,
			timeCost: 2,
			parallelism: 1
		});
		withE2eDb((db) =>
			db
				.prepare(
					"INSERT OR IGNORE INTO operators (username, password_hash, role, created_at) VALUES (?, ?, 'operator', ?)"
				)
				.run(OPERATOR.username, passwordHash, new Date().toISOString())
		);
	}
	await signInOwnOperator(page, { ...OPERATOR, setupToken: SETUP_TOKEN });
}

const hasText = (marker: string) => (m: { text?: string; caption?: string }) =>
	(m.text ?? m.caption ?? '').includes(marker);

test('an operator broadcasts to one event’s guests who said yes to news; an opt-out is left out of the next one', async ({
	page
}) => {
	test.setTimeout(120_000);
	const [ann, ben, cho, dan, eve, fay, me] = await Promise.all(
		['Ann', 'Ben', 'Cho', 'Dan', 'Eve', 'Fay', 'Operator'].map((first_name) =>
			control.createUser({ first_name, language_code: 'en' })
		)
	);
	const eventName = `Gala ${RUN}`;
	plantGuests(eventName, [
		{ id: ann!.id, consented: true, inEvent: true, news: 'in' },
		{ id: ben!.id, consented: true, inEvent: true, news: 'in' },
		{ id: cho!.id, consented: true, inEvent: true, news: 'in' },
		{ id: dan!.id, consented: false, inEvent: true, news: null },
		{ id: eve!.id, consented: true, inEvent: false, news: 'in' },
		// Consented to the selfie, was asked about news and never answered: no broadcast.
		{ id: fay!.id, consented: true, inEvent: true, news: 'asked' }
	]);
	for (const user of [ann, ben, cho, dan, eve, fay, me])
		await control.sendUserMessage({ user_id: user!.id, text: '/start' });
	await signInOperator(page);

	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Broadcasts' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Broadcasts' })).toBeVisible();
	// Before anything is written: how many said yes, per event.
	const saidYes = page.getByRole('region', { name: 'Who said yes to news' });
	await expect(saidYes.getByRole('row').filter({ hasText: eventName })).toContainText('3');
	await page.getByLabel('Audience').selectOption({ label: eventName });
	await expect(page.getByText('3 guests would get it now.')).toBeVisible();
	const marker = `thanks-${RUN}`;
	await page.getByLabel(/^Message/).fill(`<b>Thank you</b> for coming! ${marker}`);
	await page.getByLabel(/^Button label/).fill('Photos');
	await page.getByLabel(/^Button link/).fill('https://example.com/photos');
	const preview = page.getByRole('figure', { name: 'Preview as the guest sees it' });
	await expect(preview.locator('b')).toHaveText('Thank you');
	await expect(preview.getByText('🔕 No more messages')).toBeVisible();
	await page.getByLabel(/^Message/).fill(`<b>Thank you</i> ${marker}`);
	await expect(preview.getByRole('alert')).toContainText('is not closed in the right place');
	await page.getByLabel(/^Message/).fill(`<b>Thank you</b> for coming! ${marker}`);
	await page.getByRole('button', { name: 'Save draft' }).click();

	await expect(page.getByRole('heading', { level: 1, name: /Broadcast #\d+/ })).toBeVisible();
	await expect(page.getByTestId('broadcast-state')).toHaveText('draft');
	// No proven chat yet: the test is refused, with the way to prove one.
	await page.getByRole('button', { name: 'Send a test to me' }).click();
	await expectToast(
		page,
		'Link your own Telegram chat on your profile page (/console/profile) first: a test goes only to a chat that has proven it is yours.',
		'error'
	);
	const broadcastPage = page.url();
	await page.getByRole('link', { name: 'profile page' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
	await expect(page.getByTestId('telegram-link-state')).toContainText('No chat linked');
	await page.getByRole('button', { name: 'Link my Telegram chat' }).click();
	const command = await page.getByLabel('Message to send to the bot').inputValue();
	expect(command).toMatch(/^\/link [0-9A-Z]{4}-[0-9A-Z]{4}$/);
	// The operator's own chat sends the code to the bot (the worker's bot answers); the page notices.
	await control.sendUserMessage({ user_id: me!.id, text: command });
	await control.waitForMessage(me!.id, (m) => m.from_bot && !!m.text?.includes('linked to the console account'), {
		timeoutMs: 15_000
	});
	await expect(page.getByTestId('telegram-link-state')).toContainText(`Linked: chat ${me!.id}`);

	await page.goto(broadcastPage);
	await expect(page.getByTestId('test-send-target')).toContainText(`Tests go to your Telegram chat ${me!.id}`);
	await page.getByRole('button', { name: 'Send a test to me' }).click();
	await expectToast(page, `Test queued: it arrives in your Telegram chat ${me!.id}.`);
	await control.waitForMessage(me!.id, hasText(marker), { timeoutMs: 15_000 });
	await expect(page.getByTestId('test-send-state')).toContainText('Test send: sent');

	await page.getByRole('button', { name: 'Send now to 3 guests' }).click();
	await page.getByRole('button', { name: 'Yes, send it now' }).click();
	await expectToast(page, `Broadcast #${broadcastPage.split('/').pop()} is going out now.`);
	await expect(page.getByTestId('broadcast-state')).toHaveText('done', { timeout: 20_000 });
	await expect(page.getByTestId('broadcast-progress')).toHaveText('3 of 3 sent');
	for (const guest of [ann, ben, cho]) {
		const message = await control.waitForMessage(guest!.id, hasText(marker), { timeoutMs: 15_000 });
		expect(message.buttons.flat().map((b) => b.text)).toEqual(['Photos', '🔕 No more messages']);
	}
	for (const guest of [dan, eve, fay])
		expect((await control.chatMessages(guest!.id)).filter(hasText(marker))).toHaveLength(0);

	const received = (await control.chatMessages(ben!.id)).find(hasText(marker))!;
	const stop = received.buttons.flat().find((b) => b.text === '🔕 No more messages')!;
	await control.pressButton({ user_id: ben!.id, message_id: received.message_id, callback_data: stop.callback_data! });
	await control.waitForMessage(ben!.id, (m) => m.from_bot && !!m.text?.startsWith('Done: we will not send'));
	const results = page.getByRole('list', { name: /Results of broadcast/ });
	await expect(results.getByRole('listitem').filter({ hasText: 'Opted out since' })).toContainText('1');
	await expect(results.getByRole('listitem').filter({ hasText: /^Sent/ })).toContainText('3');

	await page.getByRole('link', { name: '← Broadcasts' }).click();
	await page.getByLabel('Audience').selectOption({ label: eventName });
	await expect(page.getByText('2 guests would get it now.')).toBeVisible();
	const second = `again-${RUN}`;
	await page.getByLabel(/^Message/).fill(`See you next time ${second}`);
	await page.getByRole('button', { name: 'Save draft' }).click();
	await page.getByRole('button', { name: 'Send now to 2 guests' }).click();
	await page.getByRole('button', { name: 'Yes, send it now' }).click();
	await expect(page.getByTestId('broadcast-progress')).toHaveText('2 of 2 sent', { timeout: 20_000 });
	for (const guest of [ann, cho]) await control.waitForMessage(guest!.id, hasText(second), { timeoutMs: 15_000 });
	expect((await control.chatMessages(ben!.id)).filter(hasText(second))).toHaveLength(0);
});

test('a broadcast’s page says who got it and who was skipped and why; the guest’s history shows it', async ({
	page
}) => {
	test.setTimeout(120_000);
	const [gus, ola, bob] = await Promise.all(
		['Gus', 'Ola', 'Bob'].map((first_name) => control.createUser({ first_name, language_code: 'en' }))
	);
	// Said yes to news but never opened a chat the emulator knows: Telegram has no chat with them.
	const ghost = 880_000_000 + Math.floor(Math.random() * 1_000_000);
	const eventName = `Results ${RUN}`;
	plantGuests(
		eventName,
		[gus!.id, ola!.id, bob!.id, ghost].map((id) => ({ id, consented: true, inEvent: true, news: 'in' as const }))
	);
	for (const user of [gus, ola, bob]) {
		await control.sendUserMessage({ user_id: user!.id, text: '/start' });
		await control.waitForMessage(user!.id, (m) => m.from_bot, { timeoutMs: 15_000 });
	}
	// Bob blocks the bot in Telegram; we learn it only when the broadcast is refused.
	await control.setBlocked(bob!.id, true);
	// Ola's copy keeps failing (Telegram's servers answer 502) until she opts out with /stop.
	await control.injectFault({ method: 'sendMessage', chat_id: ola!.id, times: 50, kind: '5xx', status: 502 });
	try {
		await signInOperator(page);
		await openConsolePage(page, '/console/broadcasts');
		await page.getByLabel('Audience').selectOption({ label: eventName });
		await expect(page.getByText('4 guests would get it now.')).toBeVisible();
		const marker = `results-${RUN}`;
		await page.getByLabel(/^Message/).fill(`Photos are ready ${marker}`);
		await page.getByRole('button', { name: 'Save draft' }).click();
		await expect(page.getByRole('heading', { level: 1, name: /Broadcast #\d+/ })).toBeVisible();
		const broadcastPage = page.url();
		const broadcastId = broadcastPage.split('/').pop()!;
		const recipients = page.getByRole('table', { name: `Recipients of broadcast #${broadcastId}` });
		await expect(page.getByTestId('recipients-empty')).toHaveText(
			'Nobody yet: the guests are chosen when the broadcast starts.'
		);
		await page.getByRole('button', { name: 'Send now to 4 guests' }).click();
		await page.getByRole('button', { name: 'Yes, send it now' }).click();

		const row = (id: number) => recipients.locator(`tr[data-recipient="${id}"]`);
		await expect(row(ola!.id)).toContainText('Waiting: try', { timeout: 20_000 });
		await expect(row(ola!.id)).toContainText('Telegram’s servers answered with an error');
		await control.sendUserMessage({ user_id: ola!.id, text: '/stop' });
		await expect(row(ola!.id)).toContainText('Skipped: they opted out of news', { timeout: 20_000 });
		// The bot's own answer to her /stop retries through the same fault: let it through, or it holds the bot up.
		await control.clearFaults();
		await expect(page.getByTestId('broadcast-state')).toHaveText('done', { timeout: 20_000 });

		await expect(row(gus!.id)).toContainText(`Guest ${gus!.id}`);
		await expect(row(gus!.id)).toContainText('Sent: the guest got it.');
		await expect(row(gus!.id)).toContainText('sent at');
		await expect(row(bob!.id)).toContainText('Not delivered: they have blocked the bot');
		await expect(row(ghost)).toContainText('Telegram has no chat with this person (chat not found)');
		// Plain words: no status codes on the page.
		await expect(recipients).not.toContainText(/\b(400|403|502)\b/);
		const axe = await new AxeBuilder({ page })
			.include('section[aria-labelledby="recipients-title"]')
			.withTags(['wcag2a', 'wcag2aa'])
			.analyze();
		expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

		// The filter, by keyboard: Everyone → Sent with the arrow key, the counts beside each choice.
		const filters = page.getByRole('group', { name: 'Show' });
		await expect(filters.getByRole('radio', { name: 'Everyone (4)' })).toBeChecked();
		await expect(filters.getByRole('radio', { name: 'Skipped (1)' })).toBeVisible();
		await expect(filters.getByRole('radio', { name: 'Blocked the bot (1)' })).toBeVisible();
		await expect(filters.getByRole('radio', { name: 'Failed (1)' })).toBeVisible();
		await filters.getByRole('radio', { name: 'Everyone (4)' }).focus();
		await page.keyboard.press('ArrowRight');
		await expect(filters.getByRole('radio', { name: 'Sent (1)' })).toBeChecked();
		await expect(recipients.getByRole('row')).toHaveCount(2); // the header and Gus
		await expect(row(gus!.id)).toBeVisible();
		await filters.getByRole('radio', { name: 'Waiting (0)' }).check();
		await expect(page.getByTestId('recipients-empty')).toContainText('Nobody here');
		await filters.getByRole('radio', { name: 'Skipped (1)' }).check();
		await expect(row(ola!.id)).toBeVisible();
		await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();

		// Ola's history in the console: the broadcast, marked, skipped and why, linked back.
		await row(ola!.id).getByRole('link', { name: 'Messages' }).click();
		const chat = page.getByRole('region', { name: 'Conversation', exact: true });
		const line = chat.locator(`li[data-broadcast="${broadcastId}"]`);
		await expect(line).toContainText(`broadcast #${broadcastId}`);
		await expect(line).toContainText('Skipped: they opted out of news');
		await expect(line).toContainText(marker);
		await line.getByRole('link', { name: `broadcast #${broadcastId}` }).click();
		await expect(page.getByRole('heading', { level: 1, name: `Broadcast #${broadcastId}` })).toBeVisible();
		expect((await control.chatMessages(gus!.id)).filter(hasText(marker))).toHaveLength(1);
		expect((await control.chatMessages(ola!.id)).filter(hasText(marker))).toHaveLength(0);

		// Gus asks the bot to forget him: his row goes with him; the page counts him, naming nobody.
		await expect(row(gus!.id)).toBeVisible();
		await control.sendUserMessage({ user_id: gus!.id, text: '/forget' });
		const ask = await control.waitForMessage(gus!.id, (m) => m.from_bot && !!m.text?.startsWith('Delete everything'));
		const yes = ask.buttons.flat().find((b) => b.text === 'Yes, delete everything')!;
		await control.pressButton({ user_id: gus!.id, message_id: ask.message_id, callback_data: yes.callback_data! });
		await control.waitForMessage(gus!.id, (m) => m.from_bot && !!m.text?.startsWith('Done.'), { timeoutMs: 15_000 });
		await expect(page.getByTestId('recipients-erased')).toHaveText(
			/^1 guest was erased since the broadcast started \(forgotten or past retention\)/
		);
		await expect(row(gus!.id)).toHaveCount(0);
		await expect(page.getByRole('group', { name: 'Show' }).getByRole('radio', { name: 'Everyone (3)' })).toBeChecked();
	} finally {
		await control.clearFaults();
	}
});
