import type { Update } from 'grammy/types';
import { TELEGRAM_ERRORS } from './errors.ts';
import type { EmulatorStore } from './store.ts';
import type { BotRecord, PendingUpdate } from './types.ts';

// getUpdates semantics: updates wait until an offset confirms them; a long poll is answered as
// soon as something arrives; a newer poll ends the older one with 409, as on Telegram.

/** Telegram leaves these out unless a bot asks for them by name. */
const OPT_IN_UPDATE_TYPES = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);
const HISTORY_LIMIT = 100;
const MAX_TIMEOUT_SECONDS = 50;
const MAX_LIMIT = 100;

export type UpdateContent = Omit<Update, 'update_id'>;

export interface PollRequest {
	offset?: number;
	limit?: number;
	timeout?: number;
	allowedUpdates?: string[];
}

interface Waiter {
	wake(): void;
	end(): void;
	terminate(): void;
}

export class UpdateQueue {
	private readonly waiters = new Map<BotRecord, Waiter>();
	private closed = false;

	constructor(private readonly store: EmulatorStore) {}

	enqueue(bot: BotRecord, content: UpdateContent): Update {
		const update = { update_id: bot.nextUpdateId++, ...content } as Update;
		bot.pending.push({ update, delivered: false, replay: false });
		this.store.changed();
		this.waiters.get(bot)?.wake();
		return update;
	}

	/** Queues an already seen update again, same update_id, as a flaky network would. */
	replay(bot: BotRecord, updateId: number): Update | undefined {
		const source =
			bot.history.find((update) => update.update_id === updateId) ??
			bot.pending.find((entry) => entry.update.update_id === updateId)?.update;
		if (!source) return undefined;
		bot.pending.push({ update: structuredClone(source), delivered: false, replay: true });
		this.store.changed();
		this.waiters.get(bot)?.wake();
		return source;
	}

	async poll(bot: BotRecord, request: PollRequest, connection: AbortSignal): Promise<Update[]> {
		if (bot.webhookUrl) throw TELEGRAM_ERRORS.conflictWebhook();
		// Telegram answers an older, still waiting request with 409: two pollers are a bug.
		this.waiters.get(bot)?.terminate();
		if (request.allowedUpdates !== undefined) bot.allowedUpdates = request.allowedUpdates;
		this.confirm(bot, request.offset ?? 0);
		const limit = Math.min(Math.max(request.limit ?? MAX_LIMIT, 1), MAX_LIMIT);
		const timeout = Math.min(Math.max(request.timeout ?? 0, 0), MAX_TIMEOUT_SECONDS);
		const ready = this.take(bot, limit);
		if (ready.length > 0 || timeout === 0 || this.closed) return ready;
		return this.wait(bot, limit, timeout, connection);
	}

	dropPending(bot: BotRecord): void {
		bot.pending = [];
		this.store.changed();
	}

	/** Answers every waiting poll with nothing; the bots poll again (after a reset: afresh). */
	endAll(): void {
		for (const waiter of [...this.waiters.values()]) waiter.end();
	}

	/** Ends every waiting poll and answers later ones at once, for a clean server stop. */
	closeAll(): void {
		this.closed = true;
		this.endAll();
	}

	private wait(bot: BotRecord, limit: number, timeout: number, connection: AbortSignal): Promise<Update[]> {
		return new Promise<Update[]>((resolve, reject) => {
			const cleanup = (): void => {
				clearTimeout(timer);
				connection.removeEventListener('abort', onGone);
				if (this.waiters.get(bot) === waiter) this.waiters.delete(bot);
			};
			const finish = (updates: Update[]): void => {
				cleanup();
				resolve(updates);
			};
			// A caller that hung up gets nothing: taking updates for it would only mark them delivered.
			const onGone = (): void => finish([]);
			const timer = setTimeout(() => finish([]), timeout * 1000);
			const waiter: Waiter = {
				wake: () => {
					const ready = this.take(bot, limit);
					if (ready.length > 0) finish(ready);
				},
				end: () => finish([]),
				terminate: () => {
					cleanup();
					reject(TELEGRAM_ERRORS.conflictPolling());
				}
			};
			this.waiters.set(bot, waiter);
			connection.addEventListener('abort', onGone);
		});
	}

	private confirm(bot: BotRecord, offset: number): void {
		if (offset === 0) return;
		// A negative offset keeps only the last |offset| updates, as Telegram documents.
		const isConfirmed =
			offset > 0
				? (entry: PendingUpdate) => entry.update.update_id < offset && (!entry.replay || entry.delivered)
				: (_: PendingUpdate, index: number) => index < bot.pending.length + offset;
		const kept: PendingUpdate[] = [];
		let confirmedAny = false;
		bot.pending.forEach((entry, index) => {
			if (!isConfirmed(entry, index)) return void kept.push(entry);
			confirmedAny = true;
			if (!entry.replay) bot.history.push(entry.update);
		});
		if (!confirmedAny) return;
		bot.pending = kept;
		bot.history = bot.history.slice(-HISTORY_LIMIT);
		this.store.changed();
	}

	private take(bot: BotRecord, limit: number): Update[] {
		const allowed = (update: Update): boolean => isAllowed(updateType(update), bot.allowedUpdates);
		if (bot.pending.some((entry) => !allowed(entry.update))) {
			bot.pending = bot.pending.filter((entry) => allowed(entry.update));
		}
		// Replays go first: grammY takes the last update of a batch as its next offset.
		const fresh = bot.pending.filter((entry) => !entry.replay);
		const ordered = [
			...bot.pending.filter((entry) => entry.replay && !entry.delivered),
			...fresh.sort((a, b) => a.update.update_id - b.update.update_id)
		];
		const batch = ordered.slice(0, limit);
		for (const entry of batch) entry.delivered = true;
		if (batch.length > 0) this.store.changed();
		return batch.map((entry) => entry.update);
	}
}

function updateType(update: Update): string {
	return Object.keys(update).find((key) => key !== 'update_id') ?? 'unknown';
}

function isAllowed(type: string, allowedUpdates: string[]): boolean {
	return allowedUpdates.length === 0 ? !OPT_IN_UPDATE_TYPES.has(type) : allowedUpdates.includes(type);
}
