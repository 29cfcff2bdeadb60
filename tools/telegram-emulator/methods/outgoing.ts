import type { Chat, Message } from 'grammy/types';
import type { MethodCall } from '../core.ts';
import { badRequest, TELEGRAM_ERRORS } from '../errors.ts';
import { readBool, readChatId, readInt, readJson, readString, isRecord } from '../params.ts';
import type { FormattedText } from '../formatting.ts';
import { formatText } from '../formatting.ts';
import type { StoredMessage } from '../types.ts';
import { parseReplyMarkup, validateCaption, type ParsedMarkup } from '../validation.ts';

// What every send* method shares: may the bot write to this chat, reply targets, storing the
// message and telling the page.

/** The chat a bot may write to; Telegram refuses unknown chats and users who never started it. */
export function requireWritableChat(call: MethodCall, chatId = readChatId(call.params)): Chat {
	const chat = call.core.store.chatObject(chatId);
	if (!chat) throw TELEGRAM_ERRORS.chatNotFound();
	if (chat.type === 'private') {
		const conversation = call.bot.conversations[String(chatId)];
		if (!conversation?.started) throw TELEGRAM_ERRORS.cantInitiate();
		if (conversation.blocked) throw TELEGRAM_ERRORS.blocked();
	}
	return chat;
}

export function readMarkup(call: MethodCall): ParsedMarkup {
	return parseReplyMarkup(readJson(call.params, 'reply_markup', 'reply keyboard markup JSON object'));
}

export function readCaption(call: MethodCall, prefix = ''): FormattedText {
	const caption = formatText(
		readString(call.params, `${prefix}caption`) ?? '',
		readString(call.params, `${prefix}parse_mode`),
		readJson(call.params, `${prefix}caption_entities`)
	);
	validateCaption(caption);
	return caption;
}

export function captionFields(caption: FormattedText): Partial<Message> {
	if (caption.text === '') return {};
	return caption.entities.length > 0
		? { caption: caption.text, caption_entities: caption.entities }
		: { caption: caption.text };
}

type ReplyMessage = NonNullable<Message['reply_to_message']>;

function readReplyTarget(call: MethodCall, chatId: number): ReplyMessage | undefined {
	const parameters = readJson(call.params, 'reply_parameters');
	const messageId = isRecord(parameters) ? Number(parameters.message_id) : readInt(call.params, 'reply_to_message_id');
	if (messageId === undefined || Number.isNaN(messageId)) return undefined;
	const target = call.core.store.findMessage(call.bot, chatId, messageId);
	const allowWithout =
		(isRecord(parameters) && parameters.allow_sending_without_reply === true) ||
		readBool(call.params, 'allow_sending_without_reply') === true;
	if (!target && !allowWithout) throw TELEGRAM_ERRORS.replyNotFound();
	if (!target) return undefined;
	const { reply_to_message: _nested, ...replied } = target.message;
	return replied as ReplyMessage;
}

/** Stores a message from the bot and announces it; returns what Telegram would return. */
export function storeBotMessage(
	call: MethodCall,
	chat: Chat,
	content: Partial<Message>,
	markup: ParsedMarkup = {}
): Message {
	const { store } = call.core;
	const replyTo = readReplyTarget(call, chat.id);
	const stored = store.appendMessage(call.bot, chat.id, true, (messageId) => {
		const message = {
			message_id: messageId,
			from: store.botUser(call.bot),
			chat,
			date: store.nowSeconds(),
			...content
		} as Message;
		if (replyTo) message.reply_to_message = replyTo;
		if (markup.inline) message.reply_markup = markup.inline;
		return message;
	});
	if (markup.replyKeyboard) stored.replyKeyboard = markup.replyKeyboard;
	if (markup.removeKeyboard) stored.removeKeyboard = true;
	announce(call, stored, 'new');
	return stored.message;
}

/** A live message in a chat the bot is in (edits check that the bot wrote it). */
export function findChatMessage(call: MethodCall, missing: () => Error): StoredMessage {
	if (call.params.inline_message_id !== undefined) {
		throw badRequest('inline messages are not supported by the emulator');
	}
	const chatId = readChatId(call.params);
	if (!call.core.store.chatObject(chatId)) throw TELEGRAM_ERRORS.chatNotFound();
	const messageId = readInt(call.params, 'message_id');
	const stored = messageId === undefined ? undefined : call.core.store.findMessage(call.bot, chatId, messageId);
	if (!stored) throw missing();
	return stored;
}

type MessageAction = 'new' | 'edit' | 'delete' | 'pin';

export function announce(call: MethodCall, stored: StoredMessage, action: MessageAction): void {
	call.core.store.changed();
	call.core.events.publish({
		type: 'message',
		bot: call.bot.username,
		chat_id: stored.message.chat.id,
		message_id: stored.message.message_id,
		action
	});
}
