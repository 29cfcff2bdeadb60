import type { CallbackQuery, Message, Update, User } from 'grammy/types';
import { z } from 'zod';
import type { EmulatorCore } from './core.ts';
import { detectUserEntities } from './formatting.ts';
import type { UserInput } from './store.ts';
import type { BotRecord, CallbackRecord, StoredMessage } from './types.ts';
import { messageView, type ChatMessageView } from './views.ts';

// What people do in the emulator — write to the bot, press a button — turned into the updates
// Telegram would deliver. Used by the control API (tests) and, through it, by the page.

export class ControlError extends Error {
	constructor(
		readonly status: number,
		message: string
	) {
		super(message);
	}
}

const CALLBACK_RECORD_LIMIT = 500;

export const userInputSchema = z.object({
	id: z.number().int().positive().optional(),
	first_name: z.string().trim().min(1).max(64),
	last_name: z.string().trim().max(64).optional(),
	username: z
		.string()
		.regex(/^@?[a-zA-Z][a-zA-Z0-9_]{3,31}$/)
		.optional(),
	language_code: z.string().min(2).max(10).optional()
}) satisfies z.ZodType<UserInput>;

export const userMessageSchema = z.object({
	bot: z.string().optional(),
	user_id: z.number().int().positive().optional(),
	user: userInputSchema.optional(),
	chat_id: z.number().int().optional(),
	text: z.string().min(1).max(4096),
	reply_to_message_id: z.number().int().positive().optional()
});

export const buttonPressSchema = z.object({
	bot: z.string().optional(),
	user_id: z.number().int().positive(),
	chat_id: z.number().int().optional(),
	message_id: z.number().int().positive(),
	callback_data: z.string().min(1)
});

export function resolveBot(core: EmulatorCore, ref: string | undefined): BotRecord {
	const bot = core.store.findBot(ref);
	if (!bot) throw new ControlError(404, `unknown bot ${ref ?? ''}`);
	return bot;
}

function resolveUser(core: EmulatorCore, input: z.infer<typeof userMessageSchema>): User {
	if (input.user) return core.store.upsertUser({ ...input.user, id: input.user.id ?? input.user_id });
	const user = input.user_id === undefined ? undefined : core.store.getUser(input.user_id);
	if (!user) throw new ControlError(404, 'unknown user: pass user_id of a known user or a user object');
	return user;
}

/** A user may write in their own private chat or in a group they belong to. */
function requireUserChat(core: EmulatorCore, user: User, chatId: number): void {
	if (chatId === user.id) return;
	const group = core.store.group(chatId);
	if (!group) throw new ControlError(404, `chat ${chatId} not found`);
	if (!group.memberIds.includes(user.id)) throw new ControlError(403, 'user is not a member of this group');
}

/** With privacy mode on, a bot in a group sees only commands, replies to it and mentions. */
function botSeesGroupMessage(core: EmulatorCore, bot: BotRecord, message: Message): boolean {
	if (!core.settings.groupPrivacy) return true;
	const text = message.text ?? '';
	const command = /^\/[a-zA-Z0-9_]+(?:@([a-zA-Z0-9_]+))?/.exec(text);
	if (command) return !command[1] || command[1].toLowerCase() === bot.username.toLowerCase();
	const repliedTo = message.reply_to_message?.from;
	if (repliedTo?.is_bot && repliedTo.username === bot.username) return true;
	return text.toLowerCase().includes(`@${bot.username.toLowerCase()}`);
}

export interface UserMessageResult {
	message: ChatMessageView;
	/** Absent when the bot does not get this message (group privacy). */
	update_id?: number;
}

export function sendUserMessage(core: EmulatorCore, body: unknown): UserMessageResult {
	const input = userMessageSchema.parse(body);
	const { store, events, queue } = core;
	const bot = resolveBot(core, input.bot);
	const user = resolveUser(core, input);
	const chatId = input.chat_id ?? user.id;
	requireUserChat(core, user, chatId);
	const conversation = store.conversation(bot, chatId);
	// Writing to a bot starts it (and undoes a block), as pressing Start does in a Telegram app.
	if (chatId === user.id) Object.assign(conversation, { started: true, blocked: false });
	const stored = storeUserMessage(core, bot, user, chatId, input);
	events.publish({
		type: 'message',
		bot: bot.username,
		chat_id: chatId,
		message_id: stored.message.message_id,
		action: 'new'
	});
	const visible = chatId === user.id || botSeesGroupMessage(core, bot, stored.message);
	const update = visible ? queue.enqueue(bot, { message: stored.message as UpdateMessage }) : undefined;
	return { message: messageView(core, stored), update_id: update?.update_id };
}

type UpdateMessage = NonNullable<Update['message']>;

function storeUserMessage(
	core: EmulatorCore,
	bot: BotRecord,
	user: User,
	chatId: number,
	input: z.infer<typeof userMessageSchema>
): StoredMessage {
	const { store } = core;
	const replyId = input.reply_to_message_id;
	const replyTo = replyId === undefined ? undefined : store.findMessage(bot, chatId, replyId);
	if (replyId !== undefined && !replyTo) throw new ControlError(404, 'message to reply to not found');
	return store.appendMessage(bot, chatId, false, (messageId) => {
		const message = {
			message_id: messageId,
			from: user,
			chat: store.chatObject(chatId),
			date: store.nowSeconds(),
			text: input.text
		} as Message;
		const entities = detectUserEntities(input.text);
		if (entities.length > 0) message.entities = entities;
		if (replyTo) message.reply_to_message = withoutNestedReply(replyTo);
		return message;
	});
}

type ReplyMessage = NonNullable<Message['reply_to_message']>;

function withoutNestedReply(stored: StoredMessage): ReplyMessage {
	const { reply_to_message: _nested, ...message } = stored.message;
	return message as ReplyMessage;
}

export interface ButtonPressResult {
	callback_query_id: string;
	update_id: number;
}

export function pressButton(core: EmulatorCore, body: unknown): ButtonPressResult {
	const input = buttonPressSchema.parse(body);
	const { store, queue } = core;
	const bot = resolveBot(core, input.bot);
	const user = store.getUser(input.user_id);
	if (!user) throw new ControlError(404, `unknown user ${input.user_id}`);
	const chatId = input.chat_id ?? user.id;
	requireUserChat(core, user, chatId);
	const stored = store.findMessage(bot, chatId, input.message_id);
	if (!stored) throw new ControlError(404, `message ${input.message_id} not found in chat ${chatId}`);
	const buttons = stored.message.reply_markup?.inline_keyboard.flat() ?? [];
	const exists = buttons.some((button) => 'callback_data' in button && button.callback_data === input.callback_data);
	if (!exists) {
		throw new ControlError(400, 'that message has no button with this callback_data');
	}
	const record = recordCallback(core, bot, user, chatId, input);
	const callbackQuery = {
		id: record.id,
		from: user,
		message: stored.message,
		chat_instance: String(Math.abs(chatId) * 7919 + 17),
		data: input.callback_data
	} as CallbackQuery;
	const update = queue.enqueue(bot, { callback_query: callbackQuery });
	return { callback_query_id: record.id, update_id: update.update_id };
}

function recordCallback(
	core: EmulatorCore,
	bot: BotRecord,
	user: User,
	chatId: number,
	input: z.infer<typeof buttonPressSchema>
): CallbackRecord {
	const { data } = core.store;
	const id = `${user.id}${String(data.nextCallbackSeq++).padStart(7, '0')}`;
	const record: CallbackRecord = {
		id,
		botUsername: bot.username,
		userId: user.id,
		chatId,
		messageId: input.message_id,
		data: input.callback_data,
		createdAt: core.store.clock(),
		answered: false
	};
	data.callbacks[id] = record;
	const ids = Object.keys(data.callbacks);
	const excess = Math.max(0, ids.length - CALLBACK_RECORD_LIMIT);
	for (const old of ids.slice(0, excess)) delete data.callbacks[old];
	core.store.changed();
	return record;
}
