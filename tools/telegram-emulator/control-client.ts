import type { Update, User } from 'grammy/types';
import type { ButtonPressResult, UserMessageResult } from './control-actions.ts';
import type { CountersSnapshot } from './counters.ts';
import type { FaultInput, FaultView } from './faults.ts';
import type { UserInput } from './store.ts';
import type { CallbackQueryView, ChatMessageView, StickerSetView } from './views.ts';

// A typed client of the control API for tests (and scripts): act as users, read chats, arm
// faults. Wire names are Telegram-style snake_case, like the Bot API it sits beside.

export type { UserInput };

export interface SendUserMessageInput {
	text: string;
	/** A known user... */
	user_id?: number;
	/** ...or one to create/update (without id: a new user). */
	user?: UserInput;
	/** Defaults to the user's private chat with the bot; a group id writes in the group. */
	chat_id?: number;
	reply_to_message_id?: number;
	bot?: string;
}

export interface PressButtonInput {
	user_id: number;
	message_id: number;
	callback_data: string;
	/** Defaults to the user's private chat. */
	chat_id?: number;
	bot?: string;
}

export interface EmulatorConfigView {
	bot: { username: string; id: number | null; bound: boolean };
	sales_group: { id: number; title: string };
	group_privacy: boolean;
}

export interface ChatSummary {
	chat: { id: number; type: string };
	started: boolean;
	blocked: boolean;
	message_count: number;
	last_message: ChatMessageView | null;
}

export interface WaitOptions {
	timeoutMs?: number;
	intervalMs?: number;
	bot?: string;
}

export class ControlClientError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown
	) {
		super(`emulator control API answered ${status}: ${JSON.stringify(body)}`);
	}
}

const enc = encodeURIComponent;
const botQuery = (bot?: string) => (bot ? `?bot=${enc(bot)}` : '');

export class ControlClient {
	readonly baseUrl: string;

	constructor(baseUrl: string) {
		this.baseUrl = baseUrl.replace(/\/$/, '');
	}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/_emulator/${path}`, {
			method,
			headers: body === undefined ? undefined : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const parsed = (await response.json()) as unknown;
		if (!response.ok) throw new ControlClientError(response.status, parsed);
		return parsed as T;
	}

	// ── Acting as people ──

	config = () => this.call<EmulatorConfigView>('GET', 'config');
	createUser = (input: UserInput) => this.call<User>('POST', 'users', input);
	users = () => this.call<User[]>('GET', 'users');
	setBlocked = (userId: number, blocked: boolean, bot?: string) =>
		this.call<{ user_id: number; blocked: boolean }>('POST', `users/${userId}/block`, { blocked, bot });
	sendUserMessage = (input: SendUserMessageInput) => this.call<UserMessageResult>('POST', 'messages', input);
	pressButton = (input: PressButtonInput) => this.call<ButtonPressResult>('POST', 'callbacks', input);
	/** A new supergroup (no id: the next free one); add people with addGroupMember. */
	createGroup = (input: { id?: number; title: string }) =>
		this.call<{ id: number; title: string }>('POST', 'groups', input);
	addGroupMember = (groupId: number, userId: number, admin = false) =>
		this.call<unknown>('POST', `groups/${groupId}/members`, { user_id: userId, admin });

	// ── Reading what happened ──

	bots = () => this.call<{ username: string; id: number | null; bound: boolean }[]>('GET', 'bots');
	callbackQuery = (id: string) => this.call<CallbackQueryView>('GET', `callbacks/${enc(id)}`);
	chatMessages = (chatId: number, bot?: string) =>
		this.call<ChatMessageView[]>('GET', `chats/${chatId}/messages${botQuery(bot)}`);
	listChats = (bot?: string) => this.call<ChatSummary[]>('GET', `chats${botQuery(bot)}`);
	callCounts = () => this.call<CountersSnapshot>('GET', 'counters');
	updates = (bot?: string) => this.call<{ pending: unknown[]; history: Update[] }>('GET', `updates${botQuery(bot)}`);

	/** Polls the chat until a message satisfies `predicate`; rejects after `timeoutMs`. */
	waitForMessage = async (
		chatId: number,
		predicate: (message: ChatMessageView) => boolean,
		options: WaitOptions = {}
	): Promise<ChatMessageView> => {
		// A limit for a hang, not a speed promise: it ends at the first matching message.
		const timeoutMs = options.timeoutMs ?? 20_000;
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = (await this.chatMessages(chatId, options.bot)).find(predicate);
			if (found) return found;
			if (Date.now() > deadline) throw new Error(`no matching message in chat ${chatId} within ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
		}
	};

	stickerSets = () => this.call<StickerSetView[]>('GET', 'sticker-sets');
	getStickerSet = async (name: string): Promise<StickerSetView | null> => {
		try {
			return await this.call<StickerSetView>('GET', `sticker-sets/${enc(name)}`);
		} catch (error) {
			if (error instanceof ControlClientError && error.status === 404) return null;
			throw error;
		}
	};

	/** Bytes behind a view's relative file URL (`/_emulator/files/...`). */
	fileBytes = async (url: string): Promise<Buffer> => {
		const response = await fetch(new URL(url, `${this.baseUrl}/`));
		if (!response.ok) throw new ControlClientError(response.status, await response.text());
		return Buffer.from(await response.arrayBuffer());
	};

	// ── Breaking and resetting ──

	injectFault = (fault: FaultInput) => this.call<FaultView>('POST', 'faults', fault);
	faults = () => this.call<FaultView[]>('GET', 'faults');
	clearFaults = () => this.call<unknown>('DELETE', 'faults');
	resetCounts = () => this.call<unknown>('DELETE', 'counters');
	replayUpdate = (updateId: number, bot?: string) =>
		this.call<{ update_id: number; update: Update }>('POST', `updates/${updateId}/replay`, { bot });
	reset = () => this.call<unknown>('POST', 'reset', {});
	/** BotFather's /revoke: the bot (username or id) gets a new token; the old one answers 401 from now on. */
	revokeBotToken = (bot: string) => this.call<{ token: string }>('POST', `bots/${enc(bot)}/revoke`, {});
}

/** Methods are bound (arrow properties), so they can be passed around on their own. */
export function createControlClient(baseUrl: string): ControlClient {
	return new ControlClient(baseUrl);
}
