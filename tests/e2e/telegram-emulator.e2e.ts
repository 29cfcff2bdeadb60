import { expect, test } from '@playwright/test';
import { InlineKeyboard, InputFile, type Bot } from 'grammy';
import type { TelegramEmulator } from '../../tools/telegram-emulator/server.ts';
import {
	botFor,
	makePng,
	makeVideo,
	startedUser,
	startEmulator,
	startPolling
} from '../../tools/telegram-emulator/test-support.ts';

// A person in a browser plays a guest who scanned the kiosk's QR code: the emulator's page opens
// from the deep link, starts a real grammY bot, and presses the button in its reply.

let emulator: TelegramEmulator;
let bot: Bot;
let polling: { stop: () => Promise<void> };

test.beforeAll(async () => {
	emulator = await startEmulator();
	bot = botFor(emulator);
	bot.command('start', (ctx) =>
		ctx.reply(`Welcome! Your kiosk code is ${ctx.match}`, {
			reply_markup: new InlineKeyboard().text('Make my stickers', 'make')
		})
	);
	bot.callbackQuery('make', async (ctx) => {
		await ctx.answerCallbackQuery({ text: 'Started' });
		await ctx.editMessageText('Your stickers are on the way');
	});
	bot.callbackQuery('take', async (ctx) => {
		await ctx.answerCallbackQuery();
		await ctx.editMessageText(`Lead taken by ${ctx.from.first_name}`);
	});
	polling = await startPolling(bot);
});

test.afterAll(async () => {
	await polling.stop();
	await emulator.close();
});

test.use({ viewport: { width: 390, height: 844 } });

// The page must run without script errors on a phone-sized screen.
let pageErrors: string[] = [];
test.beforeEach(({ page }) => {
	pageErrors = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
});
test.afterEach(() => {
	expect(pageErrors).toEqual([]);
});

test('a guest starts the bot from a deep link and presses its button', async ({ page }) => {
	await page.goto(`${emulator.url}/?start=abc123`);
	await expect(page.getByText('abc123', { exact: true })).toBeVisible();

	await page.getByRole('button', { name: 'Start', exact: true }).click();
	await expect(page.getByText('Welcome! Your kiosk code is abc123')).toBeVisible();
	await expect(page).toHaveURL(`${emulator.url}/`);

	await page.getByRole('button', { name: 'Make my stickers' }).click();
	await expect(page.getByText('Your stickers are on the way')).toBeVisible();
	await expect(page.getByRole('status')).toHaveText('Started');
	await expect(page.getByRole('button', { name: 'Make my stickers' })).toHaveCount(0);
});

test('a sales group member takes a lead card', async ({ page }) => {
	const { sales_group } = await emulator.control.config();
	await bot.api.sendMessage(sales_group.id, 'New lead: <b>Cafe Tashkent</b>', {
		parse_mode: 'HTML',
		reply_markup: new InlineKeyboard().text('Take', 'take')
	});
	await page.goto(`${emulator.url}/`);
	await page.getByRole('tab', { name: 'Sales group' }).click();
	await expect(page.getByText('Cafe Tashkent')).toBeVisible();

	await page.getByRole('button', { name: 'Take', exact: true }).click();
	await expect(page.getByText(/^Lead taken by Manager \d{4}$/)).toBeVisible();
});

test('a typed message reaches the bot and shows in the chat', async ({ page }) => {
	await page.goto(`${emulator.url}/start/typed`);
	await page.getByRole('button', { name: 'Start', exact: true }).click();
	await expect(page.getByText('Welcome! Your kiosk code is typed')).toBeVisible();
	await page.getByLabel('Message to the bot').fill('<b>not markup</b>');
	await page.getByLabel('Message to the bot').press('Enter');
	await expect(page.getByText('<b>not markup</b>')).toBeVisible();
});

test('a sticker set plays its video stickers and shows its static ones as images', async ({ page }) => {
	const owner = await startedUser(emulator, 'Vera');
	const name = 'vera_mixed_by_sticker_kiosk_bot';
	await bot.api.createNewStickerSet(owner, name, 'Vera, animated', [
		{ sticker: new InputFile(await makePng(512, 512), 'still.png'), format: 'static', emoji_list: ['🙂'] },
		{ sticker: new InputFile(await makeVideo(), 'clip.webm'), format: 'video', emoji_list: ['🎬'] }
	]);
	await page.goto(`${emulator.url}/addstickers/${name}`);
	const grid = page.getByRole('list', { name: 'Stickers of Vera, animated' });
	await expect(grid.getByRole('img', { name: 'Sticker 🙂' })).toBeVisible();
	const video = grid.locator('video[aria-label="Sticker 🎬"]');
	await expect(video).toBeVisible();
	await expect(video).toHaveAttribute('autoplay', '');
	await expect(video).toHaveAttribute('loop', '');
	await expect(video).toHaveAttribute('playsinline', '');
	await expect(video).toHaveJSProperty('muted', true);
	// Playing, not just present: Chromium decoded the WEBM the emulator served as video/webm.
	await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
});

test('the guest and the member forms each make a Telegram user of their own', async ({ page }) => {
	await page.goto(`${emulator.url}/`);
	const guest = page.locator('#panel-guest');
	await guest.getByRole('button', { name: 'Change guest' }).click();
	await guest.getByLabel('First name').fill('Dilnoza');
	await guest.getByLabel('Language').selectOption('uz');
	await guest.getByRole('button', { name: 'Create guest' }).click();
	await expect(guest.getByText('You are Dilnoza · uz', { exact: true })).toBeVisible();

	await page.getByRole('tab', { name: 'Sales group' }).click();
	const group = page.locator('#panel-group');
	await group.getByRole('button', { name: 'Change member' }).click();
	await group.getByLabel('First name').fill('Malika');
	await group.getByLabel('Username').fill('malika_sales');
	await group.getByRole('button', { name: 'Join as member' }).click();
	await expect(group.getByText(/^You are Malika · @malika_sales · \w{2}$/)).toBeVisible();
});
