import type { KeyboardButton, Message, Update, User } from 'grammy/types';

// ── Persisted model ─────────────────────────────────────────────────────────
// Everything here is plain JSON: the whole tree is written to the state file as is.

export const STATE_VERSION = 1;

export interface EmulatorData {
	version: typeof STATE_VERSION;
	bots: BotRecord[];
	/** By user id. Users are shared by all bots, as on Telegram. */
	users: Record<string, User>;
	nextUserId: number;
	groups: Record<string, GroupRecord>;
	/** By file_id. Several records may share stored bytes (`storageKey`). */
	files: Record<string, FileRecord>;
	nextFileSeq: number;
	/** By lower-cased set name: Telegram set names are case-insensitive. */
	stickerSets: Record<string, StickerSetRecord>;
	/** Lower-cased name → deletion time (ms); Telegram refuses such names for a while. */
	deletedSetNames: Record<string, number>;
	callbacks: Record<string, CallbackRecord>;
	nextCallbackSeq: number;
}

export interface BotRecord {
	username: string;
	firstName: string;
	/** Numeric prefix of the token; null until a token is bound. */
	id: number | null;
	/** The primary bot waits unbound until the first unknown token claims it. */
	token: string | null;
	nextUpdateId: number;
	/** As last passed to getUpdates; empty means Telegram's default set. */
	allowedUpdates: string[];
	webhookUrl: string;
	commands: unknown[];
	/** By chat id: each bot has its own view of a chat (own message ids). */
	conversations: Record<string, Conversation>;
	/** Updates not yet confirmed by a getUpdates offset. */
	pending: PendingUpdate[];
	/** Recently confirmed updates, kept so a test can replay one. */
	history: Update[];
}

export interface PendingUpdate {
	update: Update;
	delivered: boolean;
	/** A replayed update keeps its old id, so an offset alone must not confirm it before delivery. */
	replay: boolean;
}

export interface Conversation {
	chatId: number;
	/** Private chats only: the user has written to the bot at least once. */
	started: boolean;
	/** Private chats only: the user blocked the bot. */
	blocked: boolean;
	nextMessageId: number;
	messages: StoredMessage[];
}

export interface StoredMessage {
	message: Message;
	/** Sent by the bot (true) or by a user (false). */
	fromBot: boolean;
	editCount: number;
	deleted: boolean;
	pinned: boolean;
	/** A reply keyboard the bot attached: Telegram does not echo it in the Message object. */
	replyKeyboard?: KeyboardButton[][];
	removeKeyboard?: boolean;
}

export interface GroupRecord {
	id: number;
	title: string;
	memberIds: number[];
	adminIds: number[];
}

export type FileKind = 'photo' | 'sticker' | 'document';

export interface FileRecord {
	fileId: string;
	fileUniqueId: string;
	filePath: string;
	kind: FileKind;
	size: number;
	mime: string;
	width?: number;
	height?: number;
	/** Key of the stored bytes; null for a photo sent by URL (nothing downloaded). */
	storageKey: string | null;
	remoteUrl?: string;
}

export interface StickerSetRecord {
	name: string;
	title: string;
	botUsername: string;
	ownerUserId: number;
	createdAt: number;
	stickers: StickerEntry[];
}

export interface StickerEntry {
	fileId: string;
	emoji: string;
	keywords: string[];
}

export interface CallbackRecord {
	id: string;
	botUsername: string;
	userId: number;
	chatId: number;
	messageId: number;
	data: string;
	createdAt: number;
	answered: boolean;
	answer?: { text?: string; showAlert: boolean; url?: string };
}
