import { InlineKeyboard, InputFile } from 'grammy';
import { z } from 'zod';
import { broadcastText } from '../../i18n/broadcasts.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { TelegramApi } from './api.ts';

/**
 * A broadcast as a guest receives it: the operator's HTML text (as a photo caption when there
 * is a picture), their URL button if any, and always the "no more messages" button in the
 * guest's language. The test send is the same message, so the operator sees what guests will.
 */
export interface BroadcastContent {
	id: number;
	text: string;
	imagePath: string | null;
	imageFileId: string | null;
	/** The picture's bytes, read from the file store (`imagePath` is the store's reference, never read here). */
	image?: Buffer;
	buttonText: string | null;
	buttonUrl: string | null;
}

export interface SentBroadcast {
	messageId: number;
	/** The uploaded picture's file_id, for later sends to reuse. */
	photoFileId: string | null;
}

const OPT_OUT_PREFIX = 'bcast:stop:';
/** Callback data of the button: which broadcast it was pressed under. */
export const optOutCallback = z
	.string()
	.regex(/^bcast:stop:\d{1,10}$/)
	.transform((data) => Number(data.slice(OPT_OUT_PREFIX.length)));
export const OPT_OUT_CALLBACK_PATTERN = /^bcast:stop:\d{1,10}$/;

export function broadcastKeyboard(
	locale: Locale,
	content: Pick<BroadcastContent, 'id' | 'buttonText' | 'buttonUrl'>
): InlineKeyboard {
	const keyboard = new InlineKeyboard();
	if (content.buttonText && content.buttonUrl) keyboard.url(content.buttonText, content.buttonUrl).row();
	return keyboard.text(broadcastText(locale, 'optOutButton'), `${OPT_OUT_PREFIX}${content.id}`);
}

export async function sendBroadcastMessage(
	api: TelegramApi,
	chatId: bigint,
	locale: Locale,
	content: BroadcastContent
): Promise<SentBroadcast> {
	const reply_markup = broadcastKeyboard(locale, content);
	if (content.imagePath) {
		// Never a path on this host: on a bucket fleet the picture is not on this disk.
		if (!content.imageFileId && !content.image)
			throw new Error('the broadcast’s picture was not read from the file store');
		const photo = content.imageFileId ?? new InputFile(content.image!);
		const message = await api.sendPhoto(Number(chatId), photo, {
			caption: content.text,
			parse_mode: 'HTML',
			reply_markup
		});
		const largest = message.photo?.at(-1)?.file_id ?? null;
		return { messageId: message.message_id, photoFileId: content.imageFileId ? null : largest };
	}
	const message = await api.sendMessage(Number(chatId), content.text, {
		parse_mode: 'HTML',
		reply_markup,
		link_preview_options: { is_disabled: true }
	});
	return { messageId: message.message_id, photoFileId: null };
}
