import type { Api } from 'grammy';
import type { BotBudget } from './bot-budget.ts';

/** The Bot API methods that put a message in a chat or change one: each takes a place in the budget. */
const MESSAGE_METHODS = new Set([
	'sendMessage',
	'sendPhoto',
	'sendSticker',
	'sendDocument',
	'sendAnimation',
	'sendVideo',
	'sendVideoNote',
	'sendAudio',
	'sendVoice',
	'sendMediaGroup',
	'sendLocation',
	'sendVenue',
	'sendContact',
	'sendPoll',
	'sendDice',
	'sendInvoice',
	'copyMessage',
	'copyMessages',
	'forwardMessage',
	'forwardMessages',
	'editMessageText',
	'editMessageCaption',
	'editMessageMedia',
	'editMessageReplyMarkup'
]);

export interface SendPacing {
	budget: BotBudget;
	/** Waits `ms` by the budget's clock (a FakeClock in tests moves instead). */
	sleep: (ms: number) => Promise<void>;
}

/** The numeric chat a call writes to; null for a call that is no message (answerCallbackQuery, getMe…). */
export function messageChatOf(method: string, payload: unknown): bigint | null {
	if (!MESSAGE_METHODS.has(method) || !payload || typeof payload !== 'object') return null;
	const chatId = (payload as { chat_id?: unknown }).chat_id;
	if (typeof chatId === 'number' || typeof chatId === 'bigint') return BigInt(chatId);
	return typeof chatId === 'string' && /^-?\d+$/.test(chatId) ? BigInt(chatId) : null;
}

/**
 * Makes every message `api` sends wait for its place in the bot's one send budget (guest lane: a
 * person is waiting for it, so it may run a little ahead of the broadcasts), and turns every 429
 * it gets into the budget's persisted hold, so every worker — and a restarted one — slows down.
 * Installed before auto-retry, so each retried call takes a place of its own; each place is settled
 * when its call is answered, so the chat's next message is spaced from that answer (bot-budget.ts).
 */
export function paceThroughBudget(api: Api, pacing: SendPacing): void {
	api.config.use(async (prev, method, payload, signal) => {
		const chatId = messageChatOf(method, payload);
		const call = () => prev(method, payload, signal);
		const response = chatId === null ? await call() : await pacing.budget.sendInPlace(chatId, pacing.sleep, call);
		if (!response.ok && response.error_code === 429)
			await pacing.budget.noteFlood((response.parameters?.retry_after ?? 0) * 1000);
		return response;
	});
}
