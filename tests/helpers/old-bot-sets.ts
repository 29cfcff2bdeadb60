/**
 * A guest's sticker set made by one bot, and their /forget through another (or the same) bot:
 * the /forget-after-a-bot-change tests (guest-forget-old-bot, guest-forget-environment-bot).
 */
import { Api, InputFile } from 'grammy';
import sharp from 'sharp';
import type { TelegramEmulator } from '../../tools/telegram-emulator/server.ts';

/** A one-sticker set `name` of the guest, made by the bot of `token`. */
export async function createStickerSet(
	emulator: TelegramEmulator,
	token: string,
	userId: number,
	name: string
): Promise<void> {
	const png = await sharp({ create: { width: 512, height: 512, channels: 4, background: '#c0392b' } })
		.png()
		.toBuffer();
	const api = new Api(token, { apiRoot: emulator.url });
	await api.createNewStickerSet(userId, name, 'My stickers', [
		{ sticker: new InputFile(png, 's.png'), format: 'static', emoji_list: ['😀'] }
	]);
}

/** The guest sends /forget to `bot` and presses "yes"; the edited answer's text. */
export async function forgetThroughBot(
	emulator: TelegramEmulator,
	userId: number,
	bot: string,
	answer: RegExp,
	timeoutMs = 15_000
): Promise<string> {
	await emulator.control.sendUserMessage({ user_id: userId, text: '/forget', bot });
	const ask = await emulator.control.waitForMessage(
		userId,
		(m) => m.from_bot && m.buttons.flat().some((b) => b.callback_data === 'forget:yes') && !m.edited,
		{ timeoutMs, bot }
	);
	await emulator.control.pressButton({ user_id: userId, message_id: ask.message_id, callback_data: 'forget:yes', bot });
	const edited = await emulator.control.waitForMessage(
		userId,
		(m) => m.message_id === ask.message_id && m.edited && answer.test(m.text ?? ''),
		{ timeoutMs, bot }
	);
	return edited.text ?? '';
}
