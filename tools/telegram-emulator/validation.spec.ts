import { InputFile, type Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelegramEmulator } from './server.ts';
import { emulatorWithStartedUser, refusal, makePng, rawCall, startedUser } from './test-support.ts';

// Requests Telegram refuses get Telegram's refusal: ok:false, the HTTP status as error_code, and
// the description real bots see.

let emulator: TelegramEmulator;
let api: Api;
let userId: number;

beforeAll(async () => {
	({ emulator, api, userId } = await emulatorWithStartedUser());
});

afterAll(() => emulator.close());

function stickerOf(png: Buffer) {
	return { sticker: new InputFile(png), format: 'static' as const, emoji_list: ['🙂'] };
}

describe('sticker set checks', () => {
	it('refuses malformed set names', async () => {
		const png = await makePng(512, 512);
		for (const name of [
			'1abc_by_sticker_kiosk_bot',
			'a__b_by_sticker_kiosk_bot',
			'bad-name_by_sticker_kiosk_bot',
			`${'a'.repeat(60)}_by_sticker_kiosk_bot`
		]) {
			const error = await refusal(api.createNewStickerSet(userId, name, 'Title', [stickerOf(png)]));
			expect(error.error_code).toBe(400);
			expect(error.description).toBe('Bad Request: sticker set name invalid');
		}
	});

	it('refuses a name without the _by_<bot> suffix, accepting any case of it', async () => {
		const png = await makePng(512, 512);
		const error = await refusal(api.createNewStickerSet(userId, 'ann_pack', 'Title', [stickerOf(png)]));
		expect(error.description).toBe('Bad Request: sticker set name invalid');
		await expect(api.createNewStickerSet(userId, 'Ann_by_Sticker_Kiosk_Bot', 'Title', [stickerOf(png)])).resolves.toBe(
			true
		);
	});

	it('refuses a 600×600 sticker and a JPEG', async () => {
		const big = await refusal(
			api.createNewStickerSet(userId, 'big_by_sticker_kiosk_bot', 'Big', [stickerOf(await makePng(600, 600))])
		);
		expect(big.description).toBe('Bad Request: STICKER_PNG_DIMENSIONS');
		const small = await refusal(api.uploadStickerFile(userId, 'static', new InputFile(await makePng(256, 256))));
		expect(small.description).toBe('Bad Request: STICKER_PNG_DIMENSIONS');
		const { default: sharp } = await import('sharp');
		const jpeg = await sharp(await makePng(512, 512))
			.jpeg()
			.toBuffer();
		const wrongType = await refusal(api.uploadStickerFile(userId, 'static', new InputFile(jpeg)));
		expect(wrongType.description).toBe('Bad Request: STICKER_PNG_NOPNG');
	});

	it('refuses a duplicate name, case-insensitively', async () => {
		const png = await makePng(512, 300);
		await api.createNewStickerSet(userId, 'dup_by_sticker_kiosk_bot', 'One', [stickerOf(png)]);
		const error = await refusal(api.createNewStickerSet(userId, 'DUP_by_sticker_kiosk_bot', 'Two', [stickerOf(png)]));
		expect(error.description).toBe('Bad Request: sticker set name is already occupied');
	});

	it('refuses an unknown set', async () => {
		const error = await refusal(api.getStickerSet('nope_by_sticker_kiosk_bot'));
		expect(error.description).toBe('Bad Request: STICKERSET_INVALID');
	});
});

describe('message checks', () => {
	it('refuses an edit that changes nothing', async () => {
		const sent = await api.sendMessage(userId, 'Same', {
			reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }
		});
		const error = await refusal(
			api.editMessageText(userId, sent.message_id, 'Same', {
				reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }
			})
		);
		expect(error.error_code).toBe(400);
		expect(error.description).toMatch(
			/^Bad Request: message is not modified: specified new message content and reply markup are exactly the same/
		);
		const markupError = await refusal(
			api.editMessageReplyMarkup(userId, sent.message_id, {
				reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }
			})
		);
		expect(markupError.description).toMatch(/^Bad Request: message is not modified/);
		// Omitting reply_markup removes the keyboard: a real change.
		await expect(api.editMessageText(userId, sent.message_id, 'Same')).resolves.toMatchObject({ text: 'Same' });
	});

	it('refuses callback_data longer than 64 bytes', async () => {
		const { status, body } = await rawCall(emulator, 'sendMessage', {
			chat_id: userId,
			text: 'Buttons',
			reply_markup: { inline_keyboard: [[{ text: 'Too long', callback_data: 'x'.repeat(65) }]] }
		});
		expect(status).toBe(400);
		expect(body).toEqual({ ok: false, error_code: 400, description: 'Bad Request: BUTTON_DATA_INVALID' });
		const multibyte = await refusal(
			api.sendMessage(userId, 'x', {
				reply_markup: { inline_keyboard: [[{ text: 'Я', callback_data: 'я'.repeat(33) }]] }
			})
		);
		expect(multibyte.description).toBe('Bad Request: BUTTON_DATA_INVALID');
	});

	it('refuses text over 4096 characters and empty text', async () => {
		const { body } = await rawCall(emulator, 'sendMessage', { chat_id: userId, text: 'a'.repeat(4097) });
		expect(body).toEqual({ ok: false, error_code: 400, description: 'Bad Request: message is too long' });
		await expect(api.sendMessage(userId, 'a'.repeat(4096))).resolves.toBeTruthy();
		expect((await refusal(api.sendMessage(userId, '  '))).description).toBe('Bad Request: message text is empty');
	});

	it('refuses HTML and MarkdownV2 that Telegram cannot parse', async () => {
		const html = await refusal(api.sendMessage(userId, 'Hi <Ann>', { parse_mode: 'HTML' }));
		expect(html.description).toBe('Bad Request: can\'t parse entities: Unsupported start tag "ann" at byte offset 3');
		const markdown = await refusal(api.sendMessage(userId, 'Done.', { parse_mode: 'MarkdownV2' }));
		expect(markdown.description).toMatch(/^Bad Request: can't parse entities: Character '\.' is reserved/);
	});
});

describe('chat and token checks', () => {
	it('refuses unknown chats and users who never started the bot', async () => {
		expect((await refusal(api.sendMessage(123, 'hi'))).description).toBe('Bad Request: chat not found');
		const stranger = await emulator.control.createUser({ first_name: 'Stranger' });
		const error = await refusal(api.sendMessage(stranger.id, 'hi'));
		expect(error.error_code).toBe(403);
		expect(error.description).toBe("Forbidden: bot can't initiate conversation with a user");
	});

	it('refuses a user who blocked the bot', async () => {
		const blocker = await startedUser(emulator, 'Blocker');
		await emulator.control.setBlocked(blocker, true);
		expect((await refusal(api.sendMessage(blocker, 'hi'))).description).toBe('Forbidden: bot was blocked by the user');
	});

	it('answers bad tokens and unknown methods like Telegram', async () => {
		expect(await rawCall(emulator, 'getMe', {}, 'not-a-token')).toEqual({
			status: 404,
			body: { ok: false, error_code: 404, description: 'Not Found' }
		});
		expect((await rawCall(emulator, 'getMe', {}, '7000000001:another-secret')).body).toEqual({
			ok: false,
			error_code: 401,
			description: 'Unauthorized'
		});
		expect((await rawCall(emulator, 'sendTelepathy', {})).status).toBe(404);
		expect((await rawCall(emulator, 'SENDMESSAGE', { chat_id: userId, text: 'case' })).body.ok).toBe(true);
	});
});
