import { BotError, GrammyError, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Db } from '../../lib/server/db/client.ts';
import type { CrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import {
	markInboxUpdateHandled,
	nextPollOffset,
	recordUpdates,
	waitingUpdates,
	type InboxUpdate
} from '../../lib/server/telegram/bot-updates.repository.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { BotContext } from './context.ts';
import { ChatQueues } from './chat-queues.ts';

export const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;
/** Telegram's long poll: a getUpdates call waits this long for an update before it answers empty. */
const LONG_POLL_SECONDS = 30;
const BATCH_LIMIT = 100;
/**
 * Polling pauses while this many updates are taken and not yet handled: they are safe in the
 * inbox, but a worker far behind should not keep reading more of them into memory.
 */
const MAX_WAITING = 500;
/** A switch of bots handles at most this many batches of the old bot's waiting updates (runner.ts). */
const DRAIN_BATCHES = 3;

export interface UpdatePollDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** Updates of different chats handled at once (BOT_UPDATE_CONCURRENCY). */
	concurrency: number;
	crashPoint: CrashPoint;
}

/**
 * One bot's getUpdates loop and the handling of what it takes. Each batch is recorded in the inbox
 * (bot_updates) before the next getUpdates confirms it to Telegram; its updates then go to the chat
 * queues, which handle different chats side by side and one chat's updates in order, and each is
 * marked handled when its handler ends. So the poll never waits for a slow reply, and a worker
 * killed at any moment loses nothing (what it confirmed is in the inbox, what it did not comes
 * again from Telegram) and handles nothing twice (an update's row is found again; only one killed
 * between its reply and its mark is handled again, as processed_updates describes).
 */
export class UpdatePoll {
	readonly #bot: Bot<BotContext>;
	readonly #deps: UpdatePollDeps;
	readonly #queues: ChatQueues;
	/** The next getUpdates' offset: every update before it is recorded in the inbox. */
	#offset: number | undefined;
	#resumed = false;

	constructor(bot: Bot<BotContext>, deps: UpdatePollDeps) {
		this.#bot = bot;
		this.#deps = deps;
		this.#queues = new ChatQueues(deps.concurrency, (item) => this.#handle(item));
	}

	/** Takes up what the inbox still holds for this bot, then long-polls until `stopped`. */
	async run(stopped: AbortSignal): Promise<void> {
		const bot = this.#bot;
		await bot.api.deleteWebhook({ drop_pending_updates: false }, grammySignal(stopped));
		await this.#resume();
		let failures = 0;
		while (!stopped.aborted) {
			if (this.#queues.size >= MAX_WAITING) await Promise.race([this.#queues.below(MAX_WAITING), aborted(stopped)]);
			if (stopped.aborted) return;
			try {
				const params = { offset: this.#offset, limit: BATCH_LIMIT, timeout: LONG_POLL_SECONDS };
				const updates = await bot.api.getUpdates(
					{ ...params, allowed_updates: [...ALLOWED_UPDATES] },
					grammySignal(stopped)
				);
				await this.#take(updates);
				failures = 0;
			} catch (error) {
				if (stopped.aborted) return;
				// Another poller (409) or a token Telegram no longer knows (401): polling cannot go on.
				if (error instanceof GrammyError && [401, 404, 409].includes(error.error_code)) throw error;
				const waitMs = Math.min(30_000, 1000 * 2 ** failures++);
				this.#deps.logger.warn({ err: error, retryInMs: waitMs }, 'getUpdates failed; polling again shortly');
				await pause(waitMs, stopped);
			}
		}
	}

	/**
	 * The old bot's waiting updates before its token is given up (a switch of bots): fetched,
	 * recorded and confirmed, then everything taken is handled. Guests who keep writing to the old
	 * bot meanwhile are not chased: after DRAIN_BATCHES batches the rest stay with it.
	 */
	async drain(): Promise<void> {
		const bot = this.#bot;
		try {
			await this.#resume();
			let empty = false;
			for (let batch = 0; batch < DRAIN_BATCHES && !empty; batch++) {
				const updates = await bot.api.getUpdates({ offset: this.#offset, timeout: 0, limit: BATCH_LIMIT });
				await this.#take(updates);
				empty = updates.length === 0; // this call confirmed everything before the offset
			}
			if (!empty) {
				await bot.api.getUpdates({ offset: this.#offset, timeout: 0, limit: 1 });
				this.#deps.logger.warn('the old bot still had updates waiting after the handover; the rest stay with it');
			}
		} catch (error) {
			// A revoked token answers 401: its updates cannot be fetched any more; the same bot's new
			// token gets them, and the inbox and processed_updates skip what was handled.
			this.#deps.logger.warn({ err: error }, "could not hand over the old bot's waiting updates");
		}
		await this.#queues.idle();
	}

	/** Starts no more handlers; resolves when the running ones ended (the rest wait in the inbox). */
	close(): Promise<void> {
		return this.#queues.close();
	}

	async #resume(): Promise<void> {
		if (this.#resumed) return;
		const botId = this.#bot.botInfo.id;
		this.#offset = await nextPollOffset(this.#deps.db, botId);
		for (const item of await waitingUpdates(this.#deps.db, botId)) this.#queues.add(item);
		this.#resumed = true;
	}

	async #take(updates: Update[]): Promise<void> {
		if (updates.length === 0) return;
		const { db, clock, crashPoint } = this.#deps;
		const fresh = await recordUpdates(db, clock, this.#bot.botInfo.id, updates);
		crashPoint('after_updates_recorded');
		this.#offset = updates[updates.length - 1]!.update_id + 1;
		for (const item of fresh) this.#queues.add(item);
	}

	async #handle({ update }: InboxUpdate): Promise<void> {
		const bot = this.#bot;
		const { db, clock, logger, crashPoint } = this.#deps;
		try {
			await bot.handleUpdate(update);
		} catch (error) {
			if (error instanceof BotError) await Promise.resolve(bot.errorHandler(error)).catch(() => undefined);
			else logger.error({ err: error, updateId: update.update_id }, 'bot handler failed');
		}
		crashPoint('after_update_handled');
		// A mark that fails leaves the row waiting: the next poller handles the update again, and the
		// guest steps' own record (processed_updates) keeps that to one effect.
		await markInboxUpdateHandled(db, clock, bot.botInfo.id, update.update_id).catch((error: unknown) =>
			logger.warn({ err: error, updateId: update.update_id }, 'could not mark an update handled')
		);
	}
}

/** Waits `ms`, or less when `stopped` aborts. */
export function pause(ms: number, stopped: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms).unref();
		stopped.addEventListener('abort', done, { once: true });
		function done() {
			clearTimeout(timer);
			stopped.removeEventListener('abort', done);
			resolve();
		}
	});
}

function aborted(signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** grammY's Node build types its signals with the abort-controller shim's class; Node's own is what it receives. */
function grammySignal(signal: AbortSignal): Parameters<Bot['api']['getUpdates']>[1] {
	return signal as unknown as Parameters<Bot['api']['getUpdates']>[1];
}
