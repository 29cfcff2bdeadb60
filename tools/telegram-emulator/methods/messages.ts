import type { InlineKeyboardMarkup, Message, MessageEntity } from 'grammy/types';
import type { MethodCall, MethodHandler } from '../core.ts';
import { badRequest, TELEGRAM_ERRORS } from '../errors.ts';
import { formatText } from '../formatting.ts';
import { readChatId, readJson, readString, requireInt, requireString } from '../params.ts';
import type { StoredMessage } from '../types.ts';
import { LIMITS, validateMessageText } from '../validation.ts';
import {
	announce,
	captionFields,
	findChatMessage,
	readCaption,
	readMarkup,
	requireWritableChat,
	storeBotMessage
} from './outgoing.ts';

const CALLBACK_QUERY_LIFETIME_MS = 15 * 60 * 1000;

function readFormattedText(call: MethodCall) {
	const formatted = formatText(
		readString(call.params, 'text') ?? '',
		readString(call.params, 'parse_mode'),
		readJson(call.params, 'entities')
	);
	validateMessageText(formatted);
	return formatted;
}

function sendMessage(call: MethodCall): Message {
	const chat = requireWritableChat(call);
	const formatted = readFormattedText(call);
	const markup = readMarkup(call);
	const content: Partial<Message> = { text: formatted.text };
	if (formatted.entities.length > 0) content.entities = formatted.entities;
	return storeBotMessage(call, chat, content, markup);
}

// ── Edits ──

function editableOwnMessage(call: MethodCall): StoredMessage {
	const stored = findChatMessage(call, TELEGRAM_ERRORS.messageToEditNotFound);
	if (!stored.fromBot) throw TELEGRAM_ERRORS.messageCantBeEdited();
	return stored;
}

function readInlineMarkup(call: MethodCall): InlineKeyboardMarkup | undefined {
	const markup = readMarkup(call);
	if (markup.replyKeyboard || markup.removeKeyboard) throw badRequest('inline keyboard expected');
	return markup.inline;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function sameEntities(a: MessageEntity[] | undefined, b: MessageEntity[] | undefined): boolean {
	return same(a?.length ? a : undefined, b?.length ? b : undefined);
}

/** Applies an edit; an omitted reply_markup removes the keyboard, as on Telegram. */
function applyEdit(
	call: MethodCall,
	stored: StoredMessage,
	changes: Partial<Message>,
	markup?: InlineKeyboardMarkup
): Message {
	const message = stored.message as Message & Record<string, unknown>;
	for (const [key, value] of Object.entries(changes)) {
		if (value === undefined) delete message[key];
		else message[key] = value;
	}
	if (markup) message.reply_markup = markup;
	else delete message.reply_markup;
	message.edit_date = call.core.store.nowSeconds();
	stored.editCount += 1;
	announce(call, stored, 'edit');
	return stored.message;
}

function editMessageText(call: MethodCall): Message {
	const stored = editableOwnMessage(call);
	if (stored.message.text === undefined) throw TELEGRAM_ERRORS.noTextToEdit();
	const formatted = readFormattedText(call);
	const markup = readInlineMarkup(call);
	const entities = formatted.entities.length > 0 ? formatted.entities : undefined;
	const unchanged =
		stored.message.text === formatted.text &&
		sameEntities(stored.message.entities, entities) &&
		same(stored.message.reply_markup, markup);
	if (unchanged) throw TELEGRAM_ERRORS.notModified();
	return applyEdit(call, stored, { text: formatted.text, entities }, markup);
}

function editMessageCaption(call: MethodCall): Message {
	const stored = editableOwnMessage(call);
	if (stored.message.text !== undefined) throw badRequest('there is no caption in the message to edit');
	const fields = captionFields(readCaption(call));
	const markup = readInlineMarkup(call);
	const unchanged =
		stored.message.caption === fields.caption &&
		sameEntities(stored.message.caption_entities, fields.caption_entities) &&
		same(stored.message.reply_markup, markup);
	if (unchanged) throw TELEGRAM_ERRORS.notModified();
	const changes = { caption: fields.caption, caption_entities: fields.caption_entities };
	return applyEdit(call, stored, changes, markup);
}

function editMessageReplyMarkup(call: MethodCall): Message {
	const stored = editableOwnMessage(call);
	const markup = readInlineMarkup(call);
	if (same(stored.message.reply_markup, markup)) throw TELEGRAM_ERRORS.notModified();
	return applyEdit(call, stored, {}, markup);
}

// ── Other message actions ──

function deleteMessage(call: MethodCall): true {
	const stored = findChatMessage(call, TELEGRAM_ERRORS.messageToDeleteNotFound);
	stored.deleted = true;
	announce(call, stored, 'delete');
	return true;
}

function setPinned(pinned: boolean): MethodHandler {
	return (call) => {
		const stored = findChatMessage(call, () => badRequest('message to pin not found'));
		stored.pinned = pinned;
		announce(call, stored, 'pin');
		return true;
	};
}

function answerCallbackQuery(call: MethodCall): true {
	const { store, events } = call.core;
	const id = requireString(call.params, 'callback_query_id');
	const query = store.data.callbacks[id];
	const expired = !query || store.clock() - query.createdAt > CALLBACK_QUERY_LIFETIME_MS;
	if (expired || query.answered || query.botUsername !== call.bot.username) {
		throw TELEGRAM_ERRORS.queryTooOld();
	}
	const text = readString(call.params, 'text');
	if (text !== undefined && text.length > LIMITS.callbackAnswerLength) throw badRequest('MESSAGE_TOO_LONG');
	const showAlert = call.params.show_alert === true || call.params.show_alert === 'true';
	const url = readString(call.params, 'url');
	query.answered = true;
	query.answer = { text, showAlert, url };
	store.changed();
	events.publish({
		type: 'callback_answer',
		bot: call.bot.username,
		chat_id: query.chatId,
		user_id: query.userId,
		callback_query_id: id,
		text,
		show_alert: showAlert,
		url
	});
	return true;
}

const CHAT_ACTIONS = new Set([
	'typing',
	'upload_photo',
	'record_video',
	'upload_video',
	'record_voice',
	'upload_voice',
	'upload_document',
	'choose_sticker',
	'find_location',
	'record_video_note',
	'upload_video_note'
]);

function sendChatAction(call: MethodCall): true {
	requireWritableChat(call);
	if (!CHAT_ACTIONS.has(readString(call.params, 'action') ?? '')) {
		throw badRequest('wrong parameter action in request');
	}
	return true;
}

// ── Chats ──

function getChat(call: MethodCall): unknown {
	const chat = call.core.store.chatObject(readChatId(call.params));
	if (!chat) throw TELEGRAM_ERRORS.chatNotFound();
	return { ...chat, accent_color_id: 0, max_reaction_count: 11 };
}

function memberStatus(call: MethodCall, chatId: number, userId: number): string {
	const group = call.core.store.group(chatId);
	if (!group) return chatId === userId || userId === call.bot.id ? 'member' : 'left';
	if (userId === call.bot.id || group.adminIds.includes(userId)) return 'administrator';
	return group.memberIds.includes(userId) ? 'member' : 'left';
}

function getChatMember(call: MethodCall): unknown {
	const chatId = readChatId(call.params);
	if (!call.core.store.chatObject(chatId)) throw TELEGRAM_ERRORS.chatNotFound();
	const userId = requireInt(call.params, 'user_id');
	const user = userId === call.bot.id ? call.core.store.botUser(call.bot) : call.core.store.getUser(userId);
	if (!user) throw TELEGRAM_ERRORS.userNotFound();
	const status = memberStatus(call, chatId, userId);
	return status === 'administrator'
		? { status, user, can_be_edited: false, is_anonymous: false, can_manage_chat: true }
		: { status, user };
}

function getChatAdministrators(call: MethodCall): unknown[] {
	const group = call.core.store.group(readChatId(call.params));
	if (!group) throw TELEGRAM_ERRORS.chatNotFound();
	const admins = group.adminIds.flatMap((id) => call.core.store.getUser(id) ?? []);
	return admins.map((user) => ({
		status: 'administrator',
		user,
		can_be_edited: false,
		is_anonymous: false
	}));
}

export const messageMethods: Record<string, MethodHandler> = {
	sendMessage,
	editMessageText,
	editMessageCaption,
	editMessageReplyMarkup,
	deleteMessage,
	pinChatMessage: setPinned(true),
	unpinChatMessage: setPinned(false),
	answerCallbackQuery,
	sendChatAction,
	getChat,
	getChatMember,
	getChatAdministrators
};
