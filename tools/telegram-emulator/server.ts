import { closeWithoutResets, keepConnectionsLikeAFrontEnd } from '../http-front.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { handleBotApiCall } from './bot-api.ts';
import { handleControlRequest } from './control.ts';
import { createControlClient, type ControlClient } from './control-client.ts';
import { CallCounters } from './counters.ts';
import { sendJson, type EmulatorCore } from './core.ts';
import { EventHub } from './events.ts';
import { FaultRegistry } from './faults.ts';
import { handlePageRequest } from './page-server.ts';
import {
	createDiskFileStore,
	createFilePersistence,
	createMemoryFileStore,
	createMemoryPersistence,
	type StatePersistence
} from './persistence.ts';
import { EmulatorStore } from './store.ts';
import { UpdateQueue } from './update-queue.ts';

export interface TelegramEmulatorOptions {
	/** 0 (the default) picks a free port. */
	port?: number;
	host?: string;
	/** JSON state file; omit (or null) to keep everything in memory, as tests do. */
	statePath?: string | null;
	/** Uploaded bytes; defaults to `files/` next to the state file. */
	filesDir?: string;
	botUsername?: string;
	/** Binds the primary bot to this token up front (otherwise the first token seen claims it). */
	botToken?: string;
	salesGroupId?: number;
	salesGroupTitle?: string;
	/** Users who are members and admins of the sales group. */
	adminIds?: number[];
	/** Telegram's default: bots in groups see only commands, replies to them and mentions. */
	groupPrivacy?: boolean;
	deletedSetNameCooldownMs?: number;
	fetchRemoteFiles?: boolean;
	/** ffprobe for checking video stickers (`ffprobe` on the PATH). */
	ffprobePath?: string;
	saveDebounceMs?: number;
	clock?: () => number;
	/** How many of the newest Bot API calls `GET counters` keeps (5,000): a load test reads every arrival. */
	callLogLimit?: number;
}

export interface TelegramEmulator {
	/** Base URL without a trailing slash: grammY's `apiRoot`, and the page at `${url}/`. */
	url: string;
	port: number;
	control: ControlClient;
	core: EmulatorCore;
	/** Writes pending state to disk now. */
	flush(): Promise<void>;
	close(): Promise<void>;
}

export const DEFAULTS = {
	host: '127.0.0.1',
	botUsername: 'sticker_kiosk_bot',
	salesGroupId: -1001000000001,
	salesGroupTitle: 'Sales',
	deletedSetNameCooldownMs: 24 * 60 * 60 * 1000,
	ffprobePath: 'ffprobe',
	saveDebounceMs: 200
} as const;

function createCore(options: TelegramEmulatorOptions, persistence: StatePersistence): EmulatorCore {
	const statePath = options.statePath ?? null;
	const store = new EmulatorStore(
		{
			botUsername: options.botUsername ?? DEFAULTS.botUsername,
			botToken: options.botToken,
			salesGroupId: options.salesGroupId ?? DEFAULTS.salesGroupId,
			salesGroupTitle: options.salesGroupTitle ?? DEFAULTS.salesGroupTitle,
			adminIds: options.adminIds ?? []
		},
		persistence,
		options.clock ?? Date.now
	);
	const filesDir = options.filesDir ?? (statePath ? join(dirname(statePath), 'files') : null);
	return {
		store,
		queue: new UpdateQueue(store),
		events: new EventHub(),
		fileBytes: filesDir ? createDiskFileStore(filesDir) : createMemoryFileStore(),
		faults: new FaultRegistry(),
		counters: new CallCounters(options.callLogLimit),
		settings: {
			groupPrivacy: options.groupPrivacy ?? true,
			deletedSetNameCooldownMs: options.deletedSetNameCooldownMs ?? DEFAULTS.deletedSetNameCooldownMs,
			fetchRemoteFiles: options.fetchRemoteFiles ?? true,
			ffprobePath: options.ffprobePath ?? DEFAULTS.ffprobePath
		}
	};
}

const NOT_FOUND = { ok: false, error_code: 404, description: 'Not Found' } as const;

/** `/file/bot<token>/<file_path>`, as getFile's file_path promises. */
async function serveBotFile(
	core: EmulatorCore,
	res: ServerResponse,
	route: { token: string; filePath: string }
): Promise<void> {
	const known = core.store.data.bots.some((bot) => bot.token === route.token);
	const record = known ? core.store.fileByPath(route.filePath) : undefined;
	const bytes = record?.storageKey ? await core.fileBytes.get(record.storageKey) : undefined;
	if (!record || !bytes) return sendJson(res, 404, NOT_FOUND);
	res.writeHead(200, { 'content-type': record.mime, 'content-length': bytes.length });
	res.end(bytes);
}

async function route(core: EmulatorCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://emulator.invalid');
	const path = url.pathname;
	const api = /^\/bot([^/]+)\/([^/]+)\/?$/.exec(path);
	if (api) return handleBotApiCall(core, req, res, { token: api[1] ?? '', method: api[2] ?? '', url });
	const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
	if (file) return serveBotFile(core, res, { token: file[1] ?? '', filePath: decodeURIComponent(file[2] ?? '') });
	const control = /^\/_emulator\/(.*)$/.exec(path);
	if (control) return handleControlRequest(core, { req, res, url, path: control[1] ?? '' });
	if (req.method === 'GET' || req.method === 'HEAD') return handlePageRequest(core, res, path);
	sendJson(res, 404, NOT_FOUND);
}

function listen(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

export async function createTelegramEmulator(options: TelegramEmulatorOptions = {}): Promise<TelegramEmulator> {
	const persistence = options.statePath
		? createFilePersistence(options.statePath, options.saveDebounceMs ?? DEFAULTS.saveDebounceMs)
		: createMemoryPersistence();
	const core = createCore(options, persistence);
	const server = createServer((req, res) => {
		route(core, req, res).catch((error: unknown) => {
			console.error('[telegram-emulator] request failed:', error);
			if (res.headersSent) res.destroy();
			else sendJson(res, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
		});
	});
	keepConnectionsLikeAFrontEnd(server);
	const host = options.host ?? DEFAULTS.host;
	const port = await listen(server, options.port ?? 0, host);
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return {
		url,
		port,
		core,
		control: createControlClient(url),
		flush: () => persistence.flush(),
		close: () => closeEmulator(core, server, persistence)
	};
}

/** Answers waiting polls and streams first, then stops the server and writes the state. */
async function closeEmulator(core: EmulatorCore, server: Server, persistence: StatePersistence): Promise<void> {
	core.queue.closeAll();
	core.faults.clear(); // held calls go on, so their connections can close
	core.events.close();
	await new Promise((resolve) => setImmediate(resolve)); // let those answers go out
	// Keep-alive sockets that were busy a moment ago get a short grace to finish their answer.
	await closeWithoutResets(server, 300);
	await persistence.flush();
}
