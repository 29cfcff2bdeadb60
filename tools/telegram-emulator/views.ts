import type { Message, MessageEntity, User } from 'grammy/types';
import type { EmulatorCore } from './core.ts';
import { isVideoSticker } from './methods/media.ts';
import type { CallbackRecord, StickerSetRecord, StoredMessage } from './types.ts';

// What the control API and the page show of the state. File URLs are relative to the emulator
// (`/_emulator/files/<file_unique_id>`): the page may be opened under any host name.

export interface ButtonView {
	text: string;
	callback_data?: string;
	url?: string;
}

export interface MediaView {
	url: string | null;
	file_id: string;
	width?: number;
	height?: number;
}

export interface ChatMessageView {
	message_id: number;
	chat_id: number;
	from_bot: boolean;
	from?: User;
	date: number;
	text?: string;
	caption?: string;
	/** Entities of the text or of the caption, whichever the message has. */
	entities: MessageEntity[];
	buttons: ButtonView[][];
	reply_keyboard?: string[][];
	remove_keyboard?: boolean;
	photo?: MediaView;
	/** `is_video`: a WEBM video sticker (the page plays it), else a still image. */
	sticker?: MediaView & { emoji?: string; set_name?: string; is_video: boolean };
	document?: MediaView & { file_name?: string };
	reply_to_message_id?: number;
	media_group_id?: string;
	edit_count: number;
	edited: boolean;
	deleted: boolean;
	pinned: boolean;
	/** The message exactly as the bot sees it. */
	message: Message;
}

export interface StickerSetView {
	name: string;
	title: string;
	bot_username: string;
	owner_user_id: number;
	link: string;
	stickers: StickerView[];
}

export interface StickerView {
	file_id: string;
	file_unique_id: string;
	emoji: string;
	width: number;
	height: number;
	/** A WEBM video sticker (the page plays it in a looping, muted <video>), else a PNG/WEBP image. */
	is_video: boolean;
	url: string;
}

export function fileUrl(core: EmulatorCore, fileId: string): string | null {
	const record = core.store.file(fileId);
	if (!record) return null;
	if (record.remoteUrl && !record.storageKey) return record.remoteUrl;
	return `/_emulator/files/${encodeURIComponent(record.fileUniqueId)}`;
}

function buttonsOf(message: Message): ButtonView[][] {
	return (message.reply_markup?.inline_keyboard ?? []).map((row) =>
		row.map((button) => {
			const view: ButtonView = { text: button.text };
			if ('callback_data' in button) view.callback_data = button.callback_data;
			if ('url' in button) view.url = button.url;
			return view;
		})
	);
}

function mediaOf(core: EmulatorCore, message: Message): Partial<ChatMessageView> {
	const media: Partial<ChatMessageView> = {};
	const largest = message.photo?.at(-1);
	if (largest) {
		const { file_id, width, height } = largest;
		media.photo = { url: fileUrl(core, file_id), file_id, width, height };
	}
	if (message.sticker) {
		const { file_id, width, height, emoji, set_name, is_video } = message.sticker;
		media.sticker = { url: fileUrl(core, file_id), file_id, width, height, emoji, set_name, is_video };
	}
	if (message.document) {
		const { file_id, file_name } = message.document;
		media.document = { url: fileUrl(core, file_id), file_id, file_name };
	}
	return media;
}

export function messageView(core: EmulatorCore, stored: StoredMessage): ChatMessageView {
	const { message } = stored;
	const view: ChatMessageView = {
		message_id: message.message_id,
		chat_id: message.chat.id,
		from_bot: stored.fromBot,
		from: message.from,
		date: message.date,
		entities: message.entities ?? message.caption_entities ?? [],
		buttons: buttonsOf(message),
		edit_count: stored.editCount,
		edited: stored.editCount > 0,
		deleted: stored.deleted,
		pinned: stored.pinned,
		message,
		...mediaOf(core, message)
	};
	if (message.text !== undefined) view.text = message.text;
	if (message.caption !== undefined) view.caption = message.caption;
	if (stored.replyKeyboard) {
		view.reply_keyboard = stored.replyKeyboard.map((row) =>
			row.map((button) => (typeof button === 'string' ? button : button.text))
		);
	}
	if (stored.removeKeyboard) view.remove_keyboard = true;
	if (message.reply_to_message) view.reply_to_message_id = message.reply_to_message.message_id;
	if (message.media_group_id) view.media_group_id = message.media_group_id;
	return view;
}

export function stickerSetView(core: EmulatorCore, set: StickerSetRecord): StickerSetView {
	return {
		name: set.name,
		title: set.title,
		bot_username: set.botUsername,
		owner_user_id: set.ownerUserId,
		link: `https://t.me/addstickers/${set.name}`,
		stickers: set.stickers.flatMap((entry) => {
			const record = core.store.file(entry.fileId);
			if (!record) return [];
			return [
				{
					file_id: record.fileId,
					file_unique_id: record.fileUniqueId,
					emoji: entry.emoji,
					width: record.width ?? 512,
					height: record.height ?? 512,
					is_video: isVideoSticker(record),
					url: fileUrl(core, record.fileId) ?? ''
				}
			];
		})
	};
}

export interface CallbackQueryView {
	id: string;
	bot_username: string;
	user_id: number;
	chat_id: number;
	message_id: number;
	data: string;
	created_at: number;
	answered: boolean;
	answer?: { text?: string; show_alert: boolean; url?: string };
}

export function callbackQueryView(record: CallbackRecord): CallbackQueryView {
	const view: CallbackQueryView = {
		id: record.id,
		bot_username: record.botUsername,
		user_id: record.userId,
		chat_id: record.chatId,
		message_id: record.messageId,
		data: record.data,
		created_at: record.createdAt,
		answered: record.answered
	};
	if (record.answer) {
		const { text, showAlert, url } = record.answer;
		view.answer = { text, show_alert: showAlert, url };
	}
	return view;
}
