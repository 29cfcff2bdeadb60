import type { Page, TestInfo } from '@playwright/test';
import type { createControlClient } from '../../tools/telegram-emulator/control-client.ts';
import { expectToast } from './toasts.ts';
import { expect, type ProductStack } from './product-stack.ts';
import { startAndReadToken } from './kiosk-steps.ts';

/**
 * The operator walkthrough's steps that are not the operator's own clicks (operator-walkthrough.e2e.ts):
 * guests who came before the story starts, planted as the guest flow leaves them, the tablet's
 * screenshots, and the Settings page's fields. Rows go through `product.db`, so they are written
 * the same way on SQLite and on PostgreSQL.
 */
type Control = ReturnType<typeof createControlClient>;

/** A full-page screenshot of a page that is not a console page (the tablet, the landing page), attached to the test. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
	const file = testInfo.outputPath(`${name}.png`);
	await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
	await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** A guest who consented earlier and has `packs` delivered packs (done jobs); the last one's name is on their row. */
export async function plantGuestWithPacks(
	product: ProductStack,
	guest: { id: number; firstName: string; packs: number }
): Promise<string> {
	const now = new Date().toISOString();
	const pack = `walk_${guest.id}_${guest.packs}_by_sticker_kiosk_bot`;
	await product.db.run(
		'INSERT INTO users (telegram_user_id, first_name, consented_at, pack_name, pack_link, created_at) VALUES (?, ?, ?, ?, ?, ?)',
		guest.id,
		guest.firstName,
		now,
		pack,
		`https://t.me/addstickers/${pack}`,
		now
	);
	for (let n = 1; n <= guest.packs; n++) {
		const token = `walk${guest.id}pack${n}`.padEnd(32, 'x');
		await product.db.run(
			"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'wizard', 'done', ?, ?)",
			token,
			guest.id,
			now,
			now
		);
		await product.db.run(
			"INSERT INTO jobs (telegram_user_id, session_token, photo_path, template_id, status, attempts, pack_name, created_at, updated_at) VALUES (?, ?, 'gone.jpg', 'wizard', 'done', 1, ?, ?, ?)",
			guest.id,
			token,
			`walk_${guest.id}_${n}_by_sticker_kiosk_bot`,
			now,
			now
		);
	}
	return pack;
}

/** A guest who made stickers at `kioskId` during the event and said yes to news with the button. */
export async function plantNewsGuest(
	product: ProductStack,
	guest: { id: number; firstName: string; eventId: number; kioskId: number }
): Promise<void> {
	const now = new Date().toISOString();
	const token = `walk${guest.id}news`.padEnd(32, 'x');
	await product.db.run(
		'INSERT INTO users (telegram_user_id, first_name, consented_at, created_at) VALUES (?, ?, ?, ?)',
		guest.id,
		guest.firstName,
		now,
		now
	);
	await product.db.run(
		"INSERT INTO sessions (session_token, telegram_user_id, template_id, status, created_at, updated_at) VALUES (?, ?, 'wizard', 'done', ?, ?)",
		token,
		guest.id,
		now,
		now
	);
	await product.db.run(
		'INSERT INTO kiosk_sessions (session_token, kiosk_id, created_at, event_id) VALUES (?, ?, ?, ?)',
		token,
		guest.kioskId,
		now,
		guest.eventId
	);
	await product.db.run(
		"INSERT INTO news_opt_ins (telegram_user_id, state, wording_version, locale, via, event_id, asked_at, answered_at, updated_at) VALUES (?, 'in', 'news-question-1', 'en', 'button', ?, ?, ?, ?)",
		guest.id,
		guest.eventId,
		now,
		now,
		now
	);
}

/** One setting's block on the Settings page (its field, buttons, hint and origin), found by its label. */
export function settingControl(page: Page, label: string) {
	return page.locator('[data-setting]').filter({ has: page.getByLabel(label, { exact: true }) });
}

/** Each Save is named after its field for screen readers ("Save Packs per guest"). */
export async function saveSetting(page: Page, label: string, value: string): Promise<void> {
	await settingControl(page, label).getByLabel(label, { exact: true }).fill(value);
	await page.getByRole('button', { name: `Save ${label}`, exact: true }).click();
	await expectToast(page, `${label} saved.`);
}

export async function useDefaultSetting(page: Page, label: string): Promise<void> {
	await page.getByRole('button', { name: `Use the default for ${label}`, exact: true }).click();
	await expectToast(page, `${label} is back to the environment’s value.`);
}

export type SessionState = { status: string; notice: string | null };

/** The tablet's Start, the guest scans its code (/start in the emulator), and what the bot decided for the session. */
export async function guestScans(tablet: Page, product: ProductStack, control: Control, userId: number) {
	// The Start screen itself, not the "session has ended" screen (its "Back to Start" leads here).
	await expect(tablet.getByRole('heading', { name: 'Your own sticker pack' })).toBeVisible({ timeout: 20_000 });
	const token = await startAndReadToken(tablet, product);
	await control.sendUserMessage({ user_id: userId, text: `/start ${token}` });
	const state = async () =>
		(await product.db.get<SessionState>('SELECT status, notice FROM sessions WHERE session_token = ?', token))!;
	await expect.poll(async () => (await state()).status, { timeout: 15_000 }).not.toBe('idle');
	return { token, ...(await state()) };
}
