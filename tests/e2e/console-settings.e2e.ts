import { hash, type Options } from '@node-rs/argon2';
import { expect, test, type Page } from '@playwright/test';
import { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { E2E_EMULATOR_PORT } from '../../playwright.config.ts';
import { withE2eDb } from './console-operator.ts';
import { expectToast } from './toasts.ts';
import { expectConsoleScript, openConsolePage } from './console-ready.ts';

// The owner changes the sales group and the pack limit on the Settings page, and the running worker
// uses both without a restart: the next lead card goes to the new chat, and a guest who already has
// a pack may make a second one. The settings go back to the environment's at the end (one product
// is shared by every spec of the run).

const OWNER = { username: 'sam_settings', password: 'settings password 123' };
const control = createControlClient(`http://127.0.0.1:${E2E_EMULATOR_PORT}`);
const seed = Math.floor(Math.random() * 1_000_000);
const NEW_GROUP = { id: 770_000_000 + seed, first_name: 'Sales desk' };
const SALES_GROUP = -1001000000001;
const GUEST = { id: 780_000_000 + seed, first_name: 'Dilnoza', language_code: 'en' };

async function signInOwner(page: Page): Promise<void> {
	const passwordHash = await hash(OWNER.password, {
		algorithm: 2 as Options['algorithm'],
		memoryCost: 19_456,
		timeCost: 2,
		parallelism: 1
	});
	withE2eDb((db) =>
		db
			.prepare("INSERT OR IGNORE INTO operators (username, password_hash, role, created_at) VALUES (?, ?, 'owner', ?)")
			.run(OWNER.username, passwordHash, new Date().toISOString())
	);
	await page.goto('/console/login');
	await page.getByLabel('Username').fill(OWNER.username);
	await page.getByLabel('Password').fill(OWNER.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Live' })).toBeVisible();
	await expectConsoleScript(page);
}

async function botTextsIn(chatId: number): Promise<string[]> {
	return (await control.chatMessages(chatId)).filter((m) => m.from_bot).map((m) => m.text ?? '');
}

/** A token of the kiosk's shape (32 base64url characters), unique to this run. */
function sessionToken(label: string): string {
	return `e2eset${label}${seed}`.padEnd(32, 'x').slice(0, 32);
}

/** A guest who already has one pack (its done job's session is `token`). */
function guestWithOnePack(): string {
	const now = new Date().toISOString();
	const token = sessionToken('done');
	withE2eDb((db) => {
		db.prepare(
			'INSERT INTO users (telegram_user_id, first_name, consented_at, pack_name, created_at) VALUES (?, ?, ?, ?, ?)'
		).run(GUEST.id, GUEST.first_name, now, `e2e_pack_${seed}_by_bot`, now);
		db.prepare(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'wizard', 'photo_taken', ?, ?)"
		).run(token, GUEST.id, now, now);
		db.prepare(
			"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, created_at, updated_at) VALUES (?, ?, 'x.jpg', 'wizard', 'done', ?, ?)"
		).run(GUEST.id, token, now, now);
	});
	return token;
}

type SessionState = { status: string; notice: string | null };

/** A new idle session (as the kiosk's Start makes it), the guest's /start, and what the bot decided. */
async function startAgain(label: string): Promise<SessionState> {
	const token = sessionToken(label);
	const now = new Date().toISOString();
	withE2eDb((db) =>
		db
			.prepare("INSERT INTO sessions (session_token, status, created_at, updated_at) VALUES (?, 'idle', ?, ?)")
			.run(token, now, now)
	);
	await control.sendUserMessage({ user_id: GUEST.id, text: `/start ${token}` });
	const state = () =>
		withE2eDb(
			(db) => db.prepare('SELECT status, notice FROM sessions WHERE session_token = ?').get(token) as SessionState
		);
	await expect.poll(async () => state().status, { timeout: 10_000 }).not.toBe('idle');
	return state();
}

/** One setting's block on the page: its field, its buttons, its hint, origin and error. */
function settingField(page: Page, label: string) {
	return page.locator('[data-setting]').filter({ has: page.getByLabel(label, { exact: true }) });
}

async function setField(page: Page, label: string, value: string): Promise<void> {
	const field = settingField(page, label);
	await field.getByLabel(label, { exact: true }).fill(value);
	await field.getByRole('button', { name: `Save ${label}`, exact: true }).click();
	await expectToast(page, `${label} saved.`);
	await expect(field.getByText(`Set on the console by ${OWNER.username}`)).toBeVisible();
}

test.afterAll(() => {
	// A safety net when the test failed half-way (the test itself resets through the page).
	withE2eDb((db) =>
		db.prepare("DELETE FROM settings WHERE key IN ('runtime.salesGroupChatId', 'runtime.packsPerGuest')").run()
	);
});

test('the owner changes the sales group and the pack limit, and the worker uses them without a restart', async ({
	page
}) => {
	await control.createUser(NEW_GROUP);
	await control.sendUserMessage({ user_id: NEW_GROUP.id, text: '/start' }); // the chat exists for the bot
	await control.createUser(GUEST);
	guestWithOnePack();

	await signInOwner(page);
	await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: 'Settings' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	await expect(
		page.getByRole('region', { name: 'Sales group' }).getByText('From the environment (LEADS_CHAT_ID)')
	).toBeVisible();

	// A wrong value is refused in a sentence under its field, and nothing is saved.
	const packs = settingField(page, 'Packs per guest');
	await packs.getByLabel('Packs per guest', { exact: true }).fill('many');
	await page.getByRole('button', { name: 'Save Packs per guest', exact: true }).click();
	await expect(packs.getByRole('alert')).toHaveText('Packs per guest: Enter a whole number from 1 to 100.');

	// With the limit still 1, the guest's next /start gets their existing pack.
	expect(await startAgain('a')).toEqual({ status: 'expired', notice: 'pack_ready' });
	await expect
		.poll(async () => (await botTextsIn(GUEST.id)).join('\n'), { timeout: 15_000 })
		.toContain('You already have your sticker pack');

	await setField(page, 'Sales group chat id', String(NEW_GROUP.id));
	await setField(page, 'Packs per guest', '2');

	// The worker reads both within its cache period: the guest's next /start is linked (straight on to
	// the outfits, they consented before) instead of being handed the old pack. Each try is a new session.
	let tries = 0;
	await expect
		.poll(async () => (await startAgain(`b${tries++}`)).status, { timeout: 20_000, intervals: [500] })
		.toBe('consented');
	const outfits = async () =>
		(await control.chatMessages(GUEST.id)).filter(
			(m) => m.from_bot && m.buttons.flat().some((b) => b.callback_data?.startsWith('go:'))
		);
	await expect.poll(async () => (await outfits()).length, { timeout: 15_000 }).toBeGreaterThan(0);

	// The worker has read the settings after both saves (one read gives it every setting), so the
	// next lead card goes to the new chat.
	const name = `E2E Settings ${seed}`;
	await page.goto('/en');
	await page.getByRole('textbox', { name: 'Your name', exact: true }).fill(name);
	await page.getByRole('textbox', { name: 'Telegram', exact: true }).fill('@settings_e2e');
	await page.getByRole('button', { name: 'Send request' }).click();
	await expect(page.getByRole('status')).toContainText('Request received');
	await expect
		.poll(async () => (await botTextsIn(NEW_GROUP.id)).some((t) => t.includes(name)), { timeout: 20_000 })
		.toBe(true);
	expect((await botTextsIn(SALES_GROUP)).some((t) => t.includes(name))).toBe(false);

	// Back to the environment's values through the page, and wait until the worker has read them (the
	// guest is handed their pack again), so the specs after this one find the product as it was.
	await openConsolePage(page, '/console/settings');
	for (const label of ['Sales group chat id', 'Packs per guest']) {
		const field = settingField(page, label);
		await field.getByRole('button', { name: `Use the default for ${label}`, exact: true }).click();
		await expectToast(page, `${label} is back to the environment’s value.`);
		await expect(field.getByText(/^From the environment/)).toBeVisible();
	}
	await expect
		.poll(async () => (await startAgain(`c${tries++}`)).notice, { timeout: 20_000, intervals: [500] })
		.toBe('pack_ready');
});

test('a bot token Telegram refused: the Settings page says so under the token, the Health page next to the bot', async ({
	page
}) => {
	// What the worker writes when Telegram refuses a saved token (worker/bot/bot-token-switch.ts); the
	// emulator instance itself refuses a console token, so the row is written here as the worker would.
	const sentence = `Telegram refused the new bot token (Unauthorized), so the bot keeps running as @sticker_kiosk_bot with the token it had. Check the token with @BotFather and save it again. ${seed}`;
	withE2eDb((db) =>
		db
			.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('bot_token_refused', ?, ?)")
			.run(
				JSON.stringify({ at: new Date().toISOString(), sentence, token: 'e2e0000000000000' }),
				new Date().toISOString()
			)
	);
	try {
		await signInOwner(page);
		const nav = page.getByRole('navigation', { name: 'Console pages' });
		await nav.getByRole('link', { name: 'Settings' }).click();
		const token = page.locator('[data-secret]').filter({ has: page.getByLabel('Telegram bot token', { exact: true }) });
		await expect(token.getByRole('alert')).toContainText(sentence);
		await nav.getByRole('link', { name: 'Health' }).click();
		await expect(page.getByText(`new token refused`)).toBeVisible();
		await expect(page.getByText(sentence)).toBeVisible();
	} finally {
		withE2eDb((db) => db.prepare("DELETE FROM settings WHERE key = 'bot_token_refused'").run());
	}
});
