import { randomBytes } from 'node:crypto';
import type { Chat, Message, User } from 'grammy/types';
import { TELEGRAM_ERRORS } from './errors.ts';
import type { StatePersistence } from './persistence.ts';
import {
	STATE_VERSION,
	type BotRecord,
	type Conversation,
	type EmulatorData,
	type FileKind,
	type FileRecord,
	type GroupRecord,
	type StoredMessage
} from './types.ts';

export interface StoreOptions {
	botUsername: string;
	botToken?: string;
	salesGroupId: number;
	salesGroupTitle: string;
	adminIds: number[];
}

/** A user as tests and the page describe one (Telegram's field names); without id, a new user. */
export interface UserInput {
	id?: number;
	first_name: string;
	last_name?: string;
	username?: string;
	language_code?: string;
}

type NewFileFields = Omit<FileRecord, 'fileId' | 'fileUniqueId' | 'filePath' | 'kind'>;

const FIRST_USER_ID = 700_000_001;
const FILE_ID_PREFIX: Record<FileKind, string> = { photo: 'AgAC', sticker: 'CAAC', document: 'BQAC' };
const FILE_DIR: Record<FileKind, string> = { photo: 'photos', sticker: 'stickers', document: 'documents' };

/** Token shape Telegram accepts in the URL; anything else is a plain 404 there. */
export const TOKEN_PATTERN = /^(\d{1,20}):[A-Za-z0-9_-]{1,100}$/;

/** The emulator's whole state with the lookups every method needs; mutations call `changed()`. */
export class EmulatorStore {
	data: EmulatorData;

	constructor(
		private readonly options: StoreOptions,
		private readonly persistence: StatePersistence,
		readonly clock: () => number
	) {
		this.data = persistence.load() ?? createInitialData();
		reconcileWithOptions(this.data, options);
	}

	changed(): void {
		this.persistence.scheduleSave(() => this.data);
	}

	/**
	 * Forgets everything but who the bots are. Update ids keep counting up: a running bot still
	 * holds its offset, and ids starting again at 1 would be confirmed (lost) before delivery.
	 */
	reset(): void {
		const bots = this.data.bots.map((bot) => ({
			...createBotRecord(bot.username, bot.firstName),
			id: bot.id,
			token: bot.token,
			nextUpdateId: bot.nextUpdateId
		}));
		this.data = { ...createInitialData(), bots };
		reconcileWithOptions(this.data, this.options);
		this.changed();
	}

	nowSeconds(): number {
		return Math.floor(this.clock() / 1000);
	}

	// ── Bots ──

	/** The bot the page and the control API talk to unless told otherwise. */
	primaryBot(): BotRecord {
		const name = this.options.botUsername.toLowerCase();
		const primary = this.data.bots.find((bot) => bot.username.toLowerCase() === name);
		return primary ?? (this.data.bots[0] as BotRecord);
	}

	/** By username (any case, optional @) or numeric id; the primary bot when no reference. */
	findBot(ref?: string | number): BotRecord | undefined {
		if (ref === undefined || ref === '') return this.primaryBot();
		const name = String(ref).replace(/^@/, '').toLowerCase();
		return this.data.bots.find((bot) => bot.username.toLowerCase() === name || String(bot.id) === name);
	}

	/**
	 * The bot a token speaks for. The first unknown token claims the unbound primary bot, so a
	 * demo works whatever token the product was given; a known id with another secret is refused.
	 */
	botForToken(token: string): BotRecord {
		const known = this.data.bots.find((bot) => bot.token === token);
		if (known) return known;
		const id = Number(TOKEN_PATTERN.exec(token)?.[1]);
		if (this.data.bots.some((bot) => bot.id === id)) throw TELEGRAM_ERRORS.unauthorized();
		const primary = this.primaryBot();
		const bot = primary.token === null ? primary : this.addBot(`emulated_${id}_bot`, `Bot ${id}`);
		bot.token = token;
		bot.id = id;
		this.changed();
		return bot;
	}

	/**
	 * BotFather's /revoke: the same bot (id, username, updates) under a new token; the old token
	 * answers 401 from now on, like any secret that is not the bot's. Null for a bot no token has
	 * claimed yet (it has no id).
	 */
	revokeToken(bot: BotRecord): string | null {
		if (bot.id === null || bot.token === null) return null;
		bot.token = `${bot.id}:${randomBytes(26).toString('base64url')}`;
		this.changed();
		return bot.token;
	}

	private addBot(username: string, firstName: string): BotRecord {
		const bot = createBotRecord(username, firstName);
		this.data.bots.push(bot);
		return bot;
	}

	botUser(bot: BotRecord): User {
		return { id: bot.id ?? 0, is_bot: true, first_name: bot.firstName, username: bot.username };
	}

	// ── Users and chats ──

	getUser(id: number): User | undefined {
		return this.data.users[String(id)];
	}

	upsertUser(input: UserInput): User {
		const id = input.id ?? this.data.nextUserId++;
		if (id >= this.data.nextUserId) this.data.nextUserId = id + 1;
		const user: User = { id, is_bot: false, first_name: input.first_name };
		if (input.last_name) user.last_name = input.last_name;
		if (input.username) user.username = input.username.replace(/^@/, '');
		if (input.language_code) user.language_code = input.language_code;
		this.data.users[String(id)] = user;
		this.changed();
		return user;
	}

	group(id: number): GroupRecord | undefined {
		return this.data.groups[String(id)];
	}

	/**
	 * A new supergroup, as someone would make one in Telegram and add the bot (a second sales
	 * group, say). Without an id it gets the next free one below the sales group's.
	 */
	createGroup(input: { id?: number; title: string }): GroupRecord {
		let id = input.id ?? this.options.salesGroupId - 1;
		if (input.id === undefined) while (this.group(id)) id -= 1;
		const group: GroupRecord = { id, title: input.title, memberIds: [], adminIds: [] };
		this.data.groups[String(id)] = group;
		this.changed();
		return group;
	}

	salesGroup(): GroupRecord {
		return this.group(this.options.salesGroupId) as GroupRecord;
	}

	/** The Chat object Telegram would put in a message, or undefined for an unknown chat. */
	chatObject(chatId: number): Chat | undefined {
		const group = this.group(chatId);
		if (group) return { id: group.id, type: 'supergroup', title: group.title };
		const user = this.getUser(chatId);
		if (!user) return undefined;
		const chat: Chat.PrivateChat = { id: user.id, type: 'private', first_name: user.first_name };
		if (user.last_name) chat.last_name = user.last_name;
		if (user.username) chat.username = user.username;
		return chat;
	}

	conversation(bot: BotRecord, chatId: number): Conversation {
		const key = String(chatId);
		bot.conversations[key] ??= {
			chatId,
			started: false,
			blocked: false,
			nextMessageId: 1,
			messages: []
		};
		return bot.conversations[key];
	}

	findMessage(bot: BotRecord, chatId: number, messageId: number): StoredMessage | undefined {
		const messages = bot.conversations[String(chatId)]?.messages ?? [];
		const found = messages.find((stored) => stored.message.message_id === messageId);
		return found && !found.deleted ? found : undefined;
	}

	appendMessage(
		bot: BotRecord,
		chatId: number,
		fromBot: boolean,
		build: (messageId: number) => Message
	): StoredMessage {
		const conversation = this.conversation(bot, chatId);
		const stored: StoredMessage = {
			message: build(conversation.nextMessageId++),
			fromBot,
			editCount: 0,
			deleted: false,
			pinned: false
		};
		conversation.messages.push(stored);
		this.changed();
		return stored;
	}

	// ── Files ──

	newFile(kind: FileKind, ext: string, fields: NewFileFields): FileRecord {
		const seq = this.data.nextFileSeq++;
		const record: FileRecord = {
			fileId: FILE_ID_PREFIX[kind] + randomBytes(30).toString('base64url'),
			fileUniqueId: `AQAD${randomBytes(9).toString('base64url')}`,
			filePath: `${FILE_DIR[kind]}/file_${seq}.${ext}`,
			kind,
			...fields
		};
		this.data.files[record.fileId] = record;
		this.changed();
		return record;
	}

	file(fileId: string): FileRecord | undefined {
		return this.data.files[fileId];
	}

	fileByPath(filePath: string): FileRecord | undefined {
		return Object.values(this.data.files).find((file) => file.filePath === filePath);
	}

	fileByUniqueId(uniqueId: string): FileRecord | undefined {
		return Object.values(this.data.files).find((file) => file.fileUniqueId === uniqueId);
	}
}

function createBotRecord(username: string, firstName: string): BotRecord {
	return {
		username,
		firstName,
		id: null,
		token: null,
		nextUpdateId: 1,
		allowedUpdates: [],
		webhookUrl: '',
		commands: [],
		conversations: {},
		pending: [],
		history: []
	};
}

function createInitialData(): EmulatorData {
	return {
		version: STATE_VERSION,
		bots: [],
		users: {},
		nextUserId: FIRST_USER_ID,
		groups: {},
		files: {},
		nextFileSeq: 1,
		stickerSets: {},
		deletedSetNames: {},
		callbacks: {},
		nextCallbackSeq: 1
	};
}

/** Makes a loaded (or fresh) state agree with today's options: bot name, sales group, admins. */
function reconcileWithOptions(data: EmulatorData, options: StoreOptions): void {
	const name = options.botUsername.toLowerCase();
	let primary = data.bots.find((bot) => bot.username.toLowerCase() === name);
	if (!primary) {
		primary = createBotRecord(options.botUsername, 'Sticker Kiosk');
		data.bots.unshift(primary);
	}
	const tokenId = options.botToken ? Number(TOKEN_PATTERN.exec(options.botToken)?.[1]) : NaN;
	if (options.botToken && Number.isSafeInteger(tokenId)) {
		primary.token = options.botToken;
		primary.id = tokenId;
	}
	const key = String(options.salesGroupId);
	const group = (data.groups[key] ??= {
		id: options.salesGroupId,
		title: options.salesGroupTitle,
		memberIds: [],
		adminIds: []
	});
	for (const [index, adminId] of options.adminIds.entries()) {
		data.users[String(adminId)] ??= {
			id: adminId,
			is_bot: false,
			first_name: 'Sales',
			last_name: `manager ${index + 1}`
		};
		if (!group.memberIds.includes(adminId)) group.memberIds.push(adminId);
		if (!group.adminIds.includes(adminId)) group.adminIds.push(adminId);
	}
}
