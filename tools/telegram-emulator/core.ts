import type { ServerResponse } from 'node:http';
import type { CallCounters } from './counters.ts';
import type { EventHub } from './events.ts';
import type { FaultRegistry } from './faults.ts';
import type { Params } from './params.ts';
import type { FileBytesStore } from './persistence.ts';
import type { UploadedFile } from './request-body.ts';
import type { EmulatorStore } from './store.ts';
import type { BotRecord } from './types.ts';
import type { UpdateQueue } from './update-queue.ts';

/** The emulator's parts, handed to every method handler and control route. */
export interface EmulatorCore {
	store: EmulatorStore;
	queue: UpdateQueue;
	events: EventHub;
	fileBytes: FileBytesStore;
	faults: FaultRegistry;
	counters: CallCounters;
	settings: CoreSettings;
}

export interface CoreSettings {
	/** Bots in groups see only commands, replies to them and mentions (Telegram's default). */
	groupPrivacy: boolean;
	/** How long a deleted sticker set's name stays unusable. */
	deletedSetNameCooldownMs: number;
	/** May the emulator fetch photos/stickers given as http(s) URLs (off: the URL is refused). */
	fetchRemoteFiles: boolean;
	/** The ffprobe that checks video stickers; when it cannot run, video stickers are refused. */
	ffprobePath: string;
}

export interface MethodCall {
	core: EmulatorCore;
	bot: BotRecord;
	params: Params;
	uploads: Map<string, UploadedFile>;
	/** Aborted when the caller hangs up (a long poll then stops waiting). */
	connection: AbortSignal;
}

export type MethodHandler = (call: MethodCall) => unknown;

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		'cache-control': 'no-store'
	});
	res.end(text);
}
