import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { ControlError, pressButton, resolveBot, sendUserMessage, userInputSchema } from './control-actions.ts';
import { sendJson, type EmulatorCore } from './core.ts';
import { faultInputSchema } from './faults.ts';
import { readRawBody } from './request-body.ts';
import { callbackQueryView, messageView, stickerSetView } from './views.ts';

// The control API under /_emulator/: what tests and the page use to act as people and to
// inspect or break the emulator. Plain JSON in, plain JSON out; errors as { error }.

interface ControlRequest {
	core: EmulatorCore;
	url: URL;
	params: string[];
	body: unknown;
	req: IncomingMessage;
	res: ServerResponse;
}

type RouteHandler = (request: ControlRequest) => unknown | Promise<unknown>;

/** Marks a handler that wrote the response itself (files, the event stream). */
const HANDLED = Symbol('handled');

const blockSchema = z.object({ blocked: z.boolean(), bot: z.string().optional() });
const memberSchema = z.object({ user_id: z.number().int().positive(), admin: z.boolean().optional() });
const replaySchema = z.object({ bot: z.string().optional() });
/** A group's id is negative, a supergroup's starts with -100 (as in Telegram). */
const groupSchema = z.object({
	id: z.number().int().negative().optional(),
	title: z.string().trim().min(1).max(128)
});

function botFrom(request: ControlRequest) {
	return resolveBot(request.core, request.url.searchParams.get('bot') ?? undefined);
}

function numberParam(value: string | undefined): number {
	const number = Number(value);
	if (!Number.isSafeInteger(number)) throw new ControlError(400, `not a number: ${value}`);
	return number;
}

function config({ core }: ControlRequest): unknown {
	const bot = core.store.primaryBot();
	const group = core.store.salesGroup();
	return {
		bot: { username: bot.username, id: bot.id, bound: bot.token !== null },
		sales_group: { id: group.id, title: group.title },
		group_privacy: core.settings.groupPrivacy
	};
}

function listChats(request: ControlRequest): unknown {
	const { store } = request.core;
	const bot = botFrom(request);
	return Object.values(bot.conversations).map((conversation) => {
		const last = conversation.messages.at(-1);
		return {
			chat: store.chatObject(conversation.chatId),
			started: conversation.started,
			blocked: conversation.blocked,
			message_count: conversation.messages.length,
			last_message: last ? messageView(request.core, last) : null
		};
	});
}

function chatMessages(request: ControlRequest): unknown {
	const bot = botFrom(request);
	const chatId = numberParam(request.params[0]);
	const includeDeleted = request.url.searchParams.get('include_deleted') !== 'false';
	const messages = bot.conversations[String(chatId)]?.messages ?? [];
	const shown = messages.filter((stored) => includeDeleted || !stored.deleted);
	return shown.map((stored) => messageView(request.core, stored));
}

function setBlocked(request: ControlRequest): unknown {
	const input = blockSchema.parse(request.body);
	const userId = numberParam(request.params[0]);
	if (!request.core.store.getUser(userId)) throw new ControlError(404, `unknown user ${userId}`);
	const conversation = request.core.store.conversation(resolveBot(request.core, input.bot), userId);
	conversation.blocked = input.blocked;
	request.core.store.changed();
	return { user_id: userId, blocked: conversation.blocked };
}

function groupView(request: ControlRequest): unknown {
	const { store } = request.core;
	const group = store.group(numberParam(request.params[0]));
	if (!group) throw new ControlError(404, 'group not found');
	const members = group.memberIds.map((id) => ({
		user: store.getUser(id),
		admin: group.adminIds.includes(id)
	}));
	return { id: group.id, title: group.title, members };
}

function createGroup(request: ControlRequest): unknown {
	const { store, events } = request.core;
	const input = groupSchema.parse(request.body);
	if (input.id !== undefined && (store.group(input.id) || store.getUser(input.id)))
		throw new ControlError(409, `chat ${input.id} already exists`);
	const group = store.createGroup(input);
	events.publish({ type: 'users' });
	return { id: group.id, title: group.title, members: [] };
}

function addMember(request: ControlRequest): unknown {
	const { store, events } = request.core;
	const input = memberSchema.parse(request.body);
	const group = store.group(numberParam(request.params[0]));
	if (!group) throw new ControlError(404, 'group not found');
	if (!store.getUser(input.user_id)) throw new ControlError(404, `unknown user ${input.user_id}`);
	if (!group.memberIds.includes(input.user_id)) group.memberIds.push(input.user_id);
	if (input.admin && !group.adminIds.includes(input.user_id)) group.adminIds.push(input.user_id);
	store.changed();
	events.publish({ type: 'users' });
	return groupView(request);
}

function stickerSet(request: ControlRequest): unknown {
	const set = request.core.store.data.stickerSets[(request.params[0] ?? '').toLowerCase()];
	if (!set) throw new ControlError(404, 'sticker set not found');
	return stickerSetView(request.core, set);
}

async function serveFile(request: ControlRequest): Promise<typeof HANDLED> {
	const record = request.core.store.fileByUniqueId(request.params[0] ?? '');
	const bytes = record?.storageKey ? await request.core.fileBytes.get(record.storageKey) : undefined;
	if (!record || !bytes) throw new ControlError(404, 'file not found');
	request.res.writeHead(200, {
		'content-type': record.mime,
		'content-length': bytes.length,
		'cache-control': 'public, max-age=31536000, immutable'
	});
	request.res.end(bytes);
	return HANDLED;
}

function replay(request: ControlRequest): unknown {
	const input = replaySchema.parse(request.body ?? {});
	const bot = resolveBot(request.core, input.bot);
	const update = request.core.queue.replay(bot, numberParam(request.params[0]));
	if (!update) throw new ControlError(404, 'no such update (only the last 100 confirmed ones are kept)');
	return { update_id: update.update_id, update };
}

async function reset({ core }: ControlRequest): Promise<unknown> {
	core.store.reset();
	await core.fileBytes.clear();
	core.counters.reset();
	core.faults.clear();
	core.queue.endAll();
	core.events.publish({ type: 'reset' });
	return { ok: true };
}

function createUser({ core, body }: ControlRequest): unknown {
	const user = core.store.upsertUser(userInputSchema.parse(body));
	core.events.publish({ type: 'users' });
	return user;
}

function listBots({ core }: ControlRequest): unknown {
	return core.store.data.bots.map(({ username, id, token }) => ({ username, id, bound: token !== null }));
}

/** BotFather's /revoke for a bot a token has claimed: its new token (the old one answers 401). */
function revokeToken({ core, params }: ControlRequest): unknown {
	const token = core.store.revokeToken(resolveBot(core, params[0]));
	if (token === null) throw new ControlError(409, 'no token has claimed this bot yet');
	return { token };
}

function listStickerSets({ core }: ControlRequest): unknown {
	return Object.values(core.store.data.stickerSets).map((set) => stickerSetView(core, set));
}

function listUpdates(request: ControlRequest): unknown {
	const bot = botFrom(request);
	return { pending: bot.pending, history: bot.history };
}

function callbackQuery({ core, params }: ControlRequest): unknown {
	const record = core.store.data.callbacks[params[0] ?? ''];
	if (!record) throw new ControlError(404, 'no such callback query (only the last 500 are kept)');
	return callbackQueryView(record);
}

function resetCounters({ core }: ControlRequest): unknown {
	core.counters.reset();
	return { ok: true };
}

function clearFaults({ core }: ControlRequest): unknown {
	core.faults.clear();
	return { ok: true };
}

const ROUTES: [string, RegExp, RouteHandler][] = [
	['GET', /^config$/, config],
	['GET', /^bots$/, listBots],
	['POST', /^bots\/([^/]+)\/revoke$/, revokeToken],
	['GET', /^users$/, ({ core }) => Object.values(core.store.data.users)],
	['POST', /^users$/, createUser],
	['POST', /^users\/(-?\d+)\/block$/, setBlocked],
	['POST', /^messages$/, ({ core, body }) => sendUserMessage(core, body)],
	['POST', /^callbacks$/, ({ core, body }) => pressButton(core, body)],
	['GET', /^callbacks\/([^/]+)$/, callbackQuery],
	['GET', /^chats$/, listChats],
	['GET', /^chats\/(-?\d+)\/messages$/, chatMessages],
	['POST', /^groups$/, createGroup],
	['GET', /^groups\/(-?\d+)$/, groupView],
	['POST', /^groups\/(-?\d+)\/members$/, addMember],
	['GET', /^sticker-sets$/, listStickerSets],
	['GET', /^sticker-sets\/([^/]+)$/, stickerSet],
	['GET', /^files\/([^/]+)$/, serveFile],
	['GET', /^counters$/, ({ core }) => core.counters.snapshot()],
	['DELETE', /^counters$/, resetCounters],
	['GET', /^faults$/, ({ core }) => core.faults.list()],
	['POST', /^faults$/, ({ core, body }) => core.faults.arm(faultInputSchema.parse(body))],
	['DELETE', /^faults$/, clearFaults],
	['GET', /^updates$/, listUpdates],
	['POST', /^updates\/(\d+)\/replay$/, replay],
	['POST', /^reset$/, reset],
	['GET', /^events$/, ({ core, req, res }) => (core.events.subscribe(req, res), HANDLED)],
	['GET', /^health$/, () => ({ ok: true })]
];

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
	if (req.method === 'GET' || req.method === 'HEAD') return undefined;
	const text = (await readRawBody(req, 1024 * 1024)).toString('utf8');
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw new ControlError(400, 'body is not JSON');
	}
}

function findRoute(method: string | undefined, path: string) {
	for (const [routeMethod, pattern, handler] of ROUTES) {
		const found = pattern.exec(path);
		if (found && routeMethod === method) return { handler, params: found.slice(1) };
	}
	throw new ControlError(404, `no control route ${method ?? ''} /_emulator/${path}`);
}

export async function handleControlRequest(
	core: EmulatorCore,
	{ req, res, url, path }: { req: IncomingMessage; res: ServerResponse; url: URL; path: string }
): Promise<void> {
	try {
		const { handler, params } = findRoute(req.method, path);
		const body = await readJsonBody(req);
		const result = await handler({ core, url, params, body, req, res });
		if (result !== HANDLED) sendJson(res, 200, result ?? null);
	} catch (error) {
		if (error instanceof ControlError) return sendJson(res, error.status, { error: error.message });
		if (error instanceof z.ZodError) {
			return sendJson(res, 400, { error: 'invalid request', issues: error.issues });
		}
		console.error('[telegram-emulator] control request failed:', error);
		sendJson(res, 500, { error: 'internal error' });
	}
}
