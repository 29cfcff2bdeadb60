import { GrammyError, InlineKeyboard, InputFile } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TelegramEmulator } from './server.ts';
import { botFor, makePng, startedUser, startEmulator, startPolling, TEST_TOKEN } from './test-support.ts';

// The real grammY library against the emulator: what works here works against Telegram's wire.

let emulator: TelegramEmulator;

beforeEach(async () => {
	emulator = await startEmulator();
});

afterEach(async () => {
	await emulator.close();
});

describe('grammY long polling', () => {
	it('gets a user message and a button press, replies, edits and answers the query', async () => {
		const bot = botFor(emulator);
		bot.command('start', (ctx) =>
			ctx.reply(`Hello, payload ${ctx.match}`, {
				reply_markup: new InlineKeyboard().text('Make stickers', 'make:1').url('Site', 'https://example.com')
			})
		);
		bot.callbackQuery('make:1', async (ctx) => {
			await ctx.answerCallbackQuery({ text: 'On it!' });
			await ctx.editMessageText('Making your stickers…', {
				reply_markup: new InlineKeyboard().text('Cancel', 'cancel')
			});
		});
		const polling = await startPolling(bot);
		try {
			const { message } = await emulator.control.sendUserMessage({
				user: { first_name: 'Ann', username: 'ann_guest', language_code: 'ru' },
				text: '/start kiosk42'
			});
			const chatId = message.chat_id;
			const reply = await emulator.control.waitForMessage(chatId, (m) => m.from_bot);
			expect(reply.text).toBe('Hello, payload kiosk42');
			expect(reply.buttons).toEqual([
				[
					{ text: 'Make stickers', callback_data: 'make:1' },
					{ text: 'Site', url: 'https://example.com' }
				]
			]);

			const press = await emulator.control.pressButton({
				user_id: chatId,
				message_id: reply.message_id,
				callback_data: 'make:1'
			});
			const edited = await emulator.control.waitForMessage(chatId, (m) => m.from_bot && m.edited);
			expect(edited.text).toBe('Making your stickers…');
			expect(edited.buttons).toEqual([[{ text: 'Cancel', callback_data: 'cancel' }]]);
			const answer = await emulator.control.callbackQuery(press.callback_query_id);
			expect(answer).toMatchObject({ answered: true, answer: { text: 'On it!', show_alert: false } });
		} finally {
			await polling.stop();
		}
		const counts = await emulator.control.callCounts();
		expect(counts.methods).toMatchObject({ sendMessage: 1, editMessageText: 1, answerCallbackQuery: 1 });
	});

	it('answers a waiting poll as soon as an update arrives', async () => {
		const bot = botFor(emulator);
		const chatId = await startedUser(emulator);
		const first = await bot.api.getUpdates({ timeout: 0 });
		const offset = (first.at(-1)?.update_id ?? 0) + 1;
		const started = Date.now();
		const poll = bot.api.getUpdates({ offset, timeout: 20 });
		setTimeout(() => void emulator.control.sendUserMessage({ user_id: chatId, text: 'hello' }), 100);
		const updates = await poll;
		// The poll asked to wait 20 s: ending well before that shows the update woke it. The margin is
		// wide on purpose, so a busy machine's slowness is never read as a poll that was not woken.
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(updates.map((update) => update.message?.text)).toEqual(['hello']);
	});

	it('ends a waiting poll cleanly when the emulator closes', async () => {
		const api = botFor(emulator).api;
		const poll = api.getUpdates({ timeout: 30 });
		await new Promise((resolve) => setTimeout(resolve, 50));
		await emulator.close();
		await expect(poll).resolves.toEqual([]);
		emulator = await startEmulator(); // for afterEach
	});
});

describe('grammY uploads', () => {
	it('sends a photo uploaded as multipart and serves the same bytes back', async () => {
		const api = botFor(emulator).api;
		const chatId = await startedUser(emulator);
		const png = await makePng(640, 480);
		const sent = await api.sendPhoto(chatId, new InputFile(png, 'kiosk.png'), {
			caption: '<b>Your</b> photo',
			parse_mode: 'HTML'
		});
		expect(sent.caption).toBe('Your photo');
		expect(sent.photo?.at(-1)).toMatchObject({ width: 640, height: 480 });
		const file = await api.getFile(sent.photo?.at(-1)?.file_id ?? '');
		const download = await fetch(`${emulator.url}/file/bot${TEST_TOKEN}/${file.file_path}`);
		expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
		const [view] = await emulator.control.chatMessages(chatId).then((all) => all.filter((m) => m.from_bot));
		expect(view?.photo?.url).toMatch(/^\/_emulator\/files\//);
		expect((await emulator.control.fileBytes(view?.photo?.url ?? '')).equals(png)).toBe(true);
	});

	it('sends a media group, a sticker by file_id and a reply', async () => {
		const api = botFor(emulator).api;
		const chatId = await startedUser(emulator);
		const album = await api.sendMediaGroup(chatId, [
			{ type: 'photo', media: new InputFile(await makePng(100, 80)), caption: 'one' },
			{ type: 'photo', media: new InputFile(await makePng(80, 100)) }
		]);
		expect(album).toHaveLength(2);
		const groupIds = album.map((message) => ('media_group_id' in message ? message.media_group_id : undefined));
		expect(groupIds[0]).toBeTruthy();
		expect(groupIds[1]).toBe(groupIds[0]);
		const upload = await api.uploadStickerFile(chatId, 'static', new InputFile(await makePng(512, 512)));
		const sticker = await api.sendSticker(chatId, upload.file_id, {
			reply_parameters: { message_id: album[0]?.message_id ?? 0 }
		});
		expect(sticker.sticker).toMatchObject({ width: 512, height: 512, is_animated: false });
		expect(sticker.reply_to_message?.message_id).toBe(album[0]?.message_id);
		const refused = await api
			.sendMessage(chatId, 'x', { reply_parameters: { message_id: 999 } })
			.catch((error: unknown) => error);
		expect((refused as GrammyError).description).toBe('Bad Request: message to be replied not found');
	});

	it('uploads a sticker file', async () => {
		const api = botFor(emulator).api;
		const userId = await startedUser(emulator);
		const file = await api.uploadStickerFile(userId, 'static', new InputFile(await makePng(512, 512)));
		expect(file.file_id).toBeTruthy();
		expect(file.file_path).toMatch(/\.png$/);
	});
});

describe('grammY sticker sets', () => {
	it('creates a set of 12 in one call, reads it back and deletes it', async () => {
		const api = botFor(emulator).api;
		const userId = await startedUser(emulator);
		const name = 'guest_ann_1_by_sticker_kiosk_bot';
		const stickers = await Promise.all(
			Array.from({ length: 12 }, async (_, index) => ({
				sticker: new InputFile(await makePng(512, 512, index * 20), `s${index}.png`),
				format: 'static' as const,
				emoji_list: ['😀']
			}))
		);
		await expect(api.createNewStickerSet(userId, name, 'Ann at the kiosk', stickers)).resolves.toBe(true);

		const set = await api.getStickerSet(name);
		expect(set.stickers).toHaveLength(12);
		expect(set.stickers[0]).toMatchObject({ type: 'regular', width: 512, height: 512, emoji: '😀', set_name: name });
		const view = await emulator.control.getStickerSet(name);
		expect(view?.stickers).toHaveLength(12);
		expect(view?.link).toBe(`https://t.me/addstickers/${name}`);

		const replacement = {
			sticker: new InputFile(await makePng(512, 400)),
			format: 'static' as const,
			emoji_list: ['🎉']
		};
		await api.replaceStickerInSet(userId, name, set.stickers[3]?.file_id ?? '', replacement);
		expect((await api.getStickerSet(name)).stickers[3]).toMatchObject({ emoji: '🎉', height: 400 });

		await expect(api.deleteStickerSet(name)).resolves.toBe(true);
		const gone = await api.getStickerSet(name).catch((error: unknown) => error);
		expect(gone).toBeInstanceOf(GrammyError);
		expect((gone as GrammyError).description).toBe('Bad Request: STICKERSET_INVALID');
		// Telegram refuses a recently deleted set's name (with a 500, oddly).
		const again = await api
			.createNewStickerSet(userId, name, 'Again', stickers.slice(0, 1))
			.catch((error: unknown) => error);
		expect((again as GrammyError).error_code).toBe(500);
	});
});
