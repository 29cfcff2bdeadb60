import type { Context } from 'grammy';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { commandExcerpt, excerptOf } from '../../lib/server/messages/message-text.ts';
import type { MessageKind } from '../../lib/server/messages/message-log.ts';

/**
 * How a Telegram message becomes a line of history: its kind and a short text an operator can
 * read. Button presses are stored as the label the guest saw, never the callback data — ours
 * carries session tokens.
 */
export interface MessageLine {
	kind: MessageKind;
	text: string | null;
	messageId: bigint | null;
}

const PACK_LINK = 't.me/addstickers/';

export function describeIncoming(ctx: Context): MessageLine | null {
	if (ctx.callbackQuery) {
		const pressed = ctx.callbackQuery.data;
		const label = pressed === undefined ? null : buttonLabel(ctx.callbackQuery.message?.reply_markup, pressed);
		return { kind: 'callback', text: excerptOf(label), messageId: idOf(ctx.callbackQuery.message?.message_id) };
	}
	if (ctx.editedMessage)
		return {
			kind: 'edit',
			text: excerptOf(ctx.editedMessage.text ?? ctx.editedMessage.caption),
			messageId: idOf(ctx.editedMessage.message_id)
		};
	if (ctx.message) return describeMessage(ctx.message);
	return null;
}

function describeMessage(message: Message): MessageLine {
	const messageId = idOf(message.message_id);
	if (message.text !== undefined) {
		const isCommand = message.entities?.some((e) => e.type === 'bot_command' && e.offset === 0) ?? false;
		return isCommand
			? { kind: 'command', text: commandExcerpt(message.text), messageId }
			: { kind: 'text', text: excerptOf(message.text), messageId };
	}
	if (message.photo) return { kind: 'photo', text: excerptOf(message.caption), messageId };
	if (message.sticker) return { kind: 'sticker', text: excerptOf(message.sticker.emoji), messageId };
	if (message.document)
		return { kind: 'document', text: excerptOf(message.caption ?? message.document.file_name), messageId };
	return { kind: 'other', text: excerptOf(message.caption), messageId };
}

function buttonLabel(markup: InlineKeyboardMarkup | undefined, data: string): string | null {
	for (const row of markup?.inline_keyboard ?? []) {
		for (const button of row) if ('callback_data' in button && button.callback_data === data) return button.text;
	}
	return null;
}

/** Outgoing calls that put something in front of the person, and how each reads in history. */
const OUTGOING_KINDS: Record<string, MessageKind> = {
	sendMessage: 'text',
	sendPhoto: 'photo',
	sendMediaGroup: 'photo',
	sendDocument: 'document',
	sendSticker: 'sticker',
	sendAnimation: 'other',
	sendVideo: 'other',
	editMessageText: 'edit',
	editMessageCaption: 'edit',
	editMessageMedia: 'edit'
};

type Payload = Record<string, unknown>;

export function describeOutgoing(method: string, payload: Payload, result: unknown): MessageLine | null {
	const kind = OUTGOING_KINDS[method];
	if (!kind) return null;
	const text =
		typeof payload.text === 'string' ? payload.text : typeof payload.caption === 'string' ? payload.caption : null;
	const carriesPackLink =
		(text ?? '').includes(PACK_LINK) || JSON.stringify(payload.reply_markup ?? null).includes(PACK_LINK);
	return {
		kind: carriesPackLink && kind !== 'edit' ? 'sticker_set_link' : kind,
		text: excerptOf(text),
		messageId: idOf(sentMessageId(result) ?? payload.message_id)
	};
}

/** A send returns the message (a media group: a list of them); an edit of a chat message returns it too. */
function sentMessageId(result: unknown): unknown {
	const first = Array.isArray(result) ? result[0] : result;
	return typeof first === 'object' && first !== null && 'message_id' in first ? first.message_id : undefined;
}

/** Private chats have positive ids; groups and channels negative, usernames are strings. */
export function privateChatIdOf(chatId: unknown): bigint | null {
	const text =
		typeof chatId === 'number' || typeof chatId === 'bigint'
			? String(chatId)
			: typeof chatId === 'string'
				? chatId
				: '';
	return /^[1-9]\d{0,19}$/.test(text) ? BigInt(text) : null;
}

function idOf(value: unknown): bigint | null {
	return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : null;
}
