import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallRecord } from './counters.ts';
import { sendJson, type EmulatorCore, type MethodHandler } from './core.ts';
import { BotApiError, isBotApiError, TELEGRAM_ERRORS, tooManyRequests } from './errors.ts';
import { mediaMethods } from './methods/media.ts';
import { messageMethods } from './methods/messages.ts';
import { stickerMethods } from './methods/stickers.ts';
import { updateMethods } from './methods/updates.ts';
import type { FaultPlan } from './faults.ts';
import { readBotApiRequest } from './request-body.ts';
import { TOKEN_PATTERN } from './store.ts';

// `/bot<token>/<method>`: token check, body parsing, call counting, fault injection, then the
// method, answered in Telegram's envelope with the HTTP status equal to error_code.

const HANDLERS: Record<string, MethodHandler> = {
	...updateMethods,
	...messageMethods,
	...mediaMethods,
	...stickerMethods
};

/** Telegram matches method names case-insensitively. */
const BY_LOWER_NAME = new Map(
	Object.entries(HANDLERS).map(([name, handler]) => [name.toLowerCase(), { name, handler }])
);

export const SUPPORTED_METHODS = Object.keys(HANDLERS);

function sendError(res: ServerResponse, error: BotApiError, call?: CallRecord): void {
	if (call) call.outcome = error.errorCode;
	const { errorCode, description, parameters } = error;
	const body = { ok: false, error_code: errorCode, description };
	sendJson(res, errorCode, parameters ? { ...body, parameters } : body);
}

function chatIdOf(params: Record<string, unknown>): number | undefined {
	const value = Number(params.chat_id);
	return params.chat_id !== undefined && Number.isSafeInteger(value) ? value : undefined;
}

/** Applies an armed fault; returns true when the fault has answered (or killed) the call. */
async function applyFault(
	plan: FaultPlan,
	req: IncomingMessage,
	res: ServerResponse,
	call: CallRecord
): Promise<boolean> {
	if (plan.delayMs > 0) {
		call.delayed_ms = plan.delayMs;
		await sleep(plan.delayMs);
	}
	if (plan.held) await plan.held;
	const failure = plan.failure;
	if (!failure) return false;
	if (failure.kind === 'drop') {
		call.outcome = 'dropped';
		req.socket.destroy();
	} else if (failure.kind === '429') {
		sendError(res, tooManyRequests(failure.retry_after), call);
	} else {
		sendError(res, new BotApiError(failure.status, 'Internal Server Error'), call);
	}
	return true;
}

export async function handleBotApiCall(
	core: EmulatorCore,
	req: IncomingMessage,
	res: ServerResponse,
	route: { token: string; method: string; url: URL }
): Promise<void> {
	const entry = BY_LOWER_NAME.get(route.method.toLowerCase());
	if (!TOKEN_PATTERN.test(route.token) || !entry) return sendError(res, TELEGRAM_ERRORS.notFound());
	const connection = new AbortController();
	res.on('close', () => connection.abort());
	let call: CallRecord | undefined;
	try {
		const bot = core.store.botForToken(route.token);
		const { params, uploads } = await readBotApiRequest(req, route.url);
		const chatId = chatIdOf(params);
		call = core.counters.record(entry.name, chatId, core.store.clock());
		if (await applyFault(core.faults.take(entry.name, chatId), req, res, call)) return;
		const result = await entry.handler({ core, bot, params, uploads, connection: connection.signal });
		call.outcome = 200;
		sendJson(res, 200, { ok: true, result });
	} catch (error) {
		if (isBotApiError(error)) return sendError(res, error, call);
		console.error(`[telegram-emulator] ${entry.name} failed:`, error);
		sendError(res, new BotApiError(500, 'Internal Server Error'), call);
	}
}
