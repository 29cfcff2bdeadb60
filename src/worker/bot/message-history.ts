import type { Api, Bot, Transformer } from 'grammy';
import type { MessageDirection } from '../../lib/server/messages/message-log.ts';
import type { BotContext, BotDeps } from './context.ts';
import { describeIncoming, describeOutgoing, privateChatIdOf, type MessageLine } from './message-history-entries.ts';

/**
 * The bot's message history, which the console shows (docs/console.md "Messages"): every private-chat
 * message in and out, with guests and admins alike. The sales group is never recorded — it is a
 * group, and LEADS_CHAT_ID and the sales group set on the console are excluded by id as well, in case
 * either is set to a person's chat.
 * Incoming updates are seen by a middleware placed before every feature; outgoing messages by an
 * API transformer on bot.api, which covers replies, the job queue and the worker's tasks (they
 * all get bot.api). Recording never waits and never fails the bot (deps.history, the process's
 * MessageHistoryWriter).
 */
export function installMessageHistory(bot: Bot<BotContext>, deps: BotDeps, otherSenders: readonly Api[] = []): void {
	const writer = deps.history;
	const fromEnvironment = privateChatIdOf(deps.config.LEADS_CHAT_ID);
	const excluded = (chat: bigint) =>
		chat === fromEnvironment || chat === privateChatIdOf(deps.runtime.lastSalesGroup());
	const record = (telegramUserId: bigint, direction: MessageDirection, line: MessageLine) =>
		writer.record({ telegramUserId, direction, ...line, at: deps.clock.now().toISOString() });

	// otherSenders: the worker's own clients (the guest notices outbox) write to the same people.
	for (const api of [bot.api, ...otherSenders]) api.config.use(recordOutgoing(excluded, record, deps.logger));
	bot.use(async (ctx, next) => {
		const person = ctx.chat?.type === 'private' && ctx.from && !ctx.from.is_bot ? BigInt(ctx.from.id) : null;
		if (person === null || excluded(person)) return next();
		const startedAt = deps.clock.now().toISOString();
		const line = safely(() => describeIncoming(ctx), deps);
		if (line) record(person, 'in', line);
		try {
			await next();
		} finally {
			writer.dropIfErasedSince(person, startedAt);
		}
	});
}

type RecordLine = (telegramUserId: bigint, direction: MessageDirection, line: MessageLine) => void;

/** Records a message only once Telegram accepted it; the call itself is passed through untouched. */
function recordOutgoing(
	excluded: (chat: bigint) => boolean,
	record: RecordLine,
	logger: BotDeps['logger']
): Transformer {
	return async (prev, method, payload, signal) => {
		const response = await prev(method, payload, signal);
		if (!response.ok) return response;
		const fields = payload as Record<string, unknown>;
		const chat = privateChatIdOf(fields.chat_id);
		if (chat === null || excluded(chat)) return response;
		try {
			const line = describeOutgoing(method, fields, response.result);
			if (line) record(chat, 'out', line);
		} catch (error) {
			// A message we cannot describe is left out of history; the reply already went out.
			logger.warn({ err: error, method }, 'could not describe an outgoing message for history');
		}
		return response;
	};
}

function safely<T>(describe: () => T, deps: BotDeps): T | null {
	try {
		return describe();
	} catch (error) {
		deps.logger.warn({ err: error }, 'could not describe an incoming message for history');
		return null;
	}
}
