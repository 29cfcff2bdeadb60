import { Api, BotError, type Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { BotContext } from './context.ts';

const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;
/** One getMe at start may take this long: a Telegram that never answers is reported, not waited for. */
const GET_ME_TIMEOUT_SECONDS = 10;
/**
 * How long stopping waits for Telegram to confirm the updates handled so far. An unreachable
 * Telegram must not hold shutdown: unconfirmed updates come again at the next start, and the
 * guest handlers recognise them as handled (processed_updates).
 */
const STOP_CONFIRM_MS = 2_000;
/**
 * A switch of bots handles at most this many batches of the old bot's waiting updates: what was
 * waiting when it began, not guests who keep writing to the old bot meanwhile (theirs stay with it).
 */
const DRAIN_BATCHES = 3;

/**
 * Long polling that survives Telegram (or the emulator) being unreachable at start: getMe is
 * retried with capped backoff instead of crashing the worker, and each failure is logged. grammY
 * itself retries failed getUpdates calls once polling runs. Polling can be stopped and started
 * again (a worker that loses the updates lease stops, and starts when it holds it once more).
 */
export class BotRunner {
	/** The current round of polling; aborted by stop(), so a getMe still retrying gives up. */
	#round: AbortController | undefined;
	#polling: Promise<void> | undefined;
	/** getMe without the bot's auto-retry (which would retry a network error silently for ever). */
	#probe: Api;
	#bot: Bot<BotContext>;
	/** Whether the updates lease wants polling (start/stop); a switch of bots ends in this state. */
	#wanted = false;
	#switching = false;
	readonly #apiRoot: string;

	constructor(
		bot: Bot<BotContext>,
		private readonly logger: Logger,
		telegram: { apiRoot: string }
	) {
		this.#bot = bot;
		this.#apiRoot = telegram.apiRoot;
		this.#probe = this.#probeFor(bot);
	}

	/** The bot polling now (a new one after switchTo). */
	get bot(): Bot<BotContext> {
		return this.#bot;
	}

	#probeFor(bot: Bot<BotContext>): Api {
		return new Api(bot.token, { apiRoot: this.#apiRoot, timeoutSeconds: GET_ME_TIMEOUT_SECONDS });
	}

	start(): void {
		this.#wanted = true;
		if (this.#switching) return; // the switch starts the new bot once it is built
		if (this.#round && !this.#round.signal.aborted) return;
		const round = new AbortController();
		this.#round = round;
		this.#polling = this.#run(round.signal).catch((error: unknown) => {
			// Stopping aborts the call in flight (the long poll, or deleteWebhook right at start): no failure.
			if (!round.signal.aborted) this.logger.error({ err: error }, 'bot polling ended with an error');
		});
	}

	async #run(stopped: AbortSignal): Promise<void> {
		// This round's bot and probe: a switch (switchTo) ends the round before it replaces them.
		const bot = this.#bot;
		const probe = this.#probe;
		for (let attempt = 0; !stopped.aborted; attempt++) {
			try {
				bot.botInfo = await probe.getMe();
				break;
			} catch (error) {
				if (stopped.aborted) return;
				const waitMs = Math.min(30_000, 1000 * 2 ** attempt);
				this.logger.warn({ err: error, retryInMs: waitMs }, 'Telegram not reachable yet (getMe failed)');
				await delay(waitMs, stopped);
			}
		}
		if (stopped.aborted) return;
		this.logger.info({ username: bot.botInfo.username }, 'bot polling started');
		await bot.start({ allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false });
	}

	/**
	 * Ends polling: the long poll is aborted at once, handled updates are confirmed if Telegram
	 * answers within STOP_CONFIRM_MS. A getMe still retrying is simply abandoned.
	 */
	async stop(): Promise<void> {
		this.#wanted = false;
		this.#round?.abort();
		if (!this.#bot.isRunning()) return;
		const confirmed = this.#bot.stop().then(
			() => true,
			() => false
		);
		if (!(await within(confirmed, STOP_CONFIRM_MS))) {
			this.logger.info(
				'Telegram did not confirm the last updates before stopping; they come again at the next start and are skipped as handled'
			);
		}
		await within(this.#polling, STOP_CONFIRM_MS);
	}

	/**
	 * Hands polling from the current bot to `next` (a replaced token) at a poll-cycle boundary: the
	 * old bot's long poll is ended, the batch in hand is handled in full, what the old bot still has
	 * waiting is handled and confirmed (nothing is left unanswered behind a token no one polls any
	 * more, nothing is fetched twice); only then `swap` runs (the senders' token changes) and the new
	 * bot polls, if the updates lease wants polling. A bot that is not polling is simply replaced.
	 */
	async switchTo(next: Bot<BotContext>, me: UserFromGetMe, swap: () => void): Promise<void> {
		this.#switching = true;
		try {
			const old = this.#bot;
			const polling = this.#polling;
			if (this.#round && !this.#round.signal.aborted) {
				this.#round.abort();
				if (old.isRunning()) await old.stop().catch((error: unknown) => this.#confirmFailed(error));
				// grammY handles the rest of a batch after stop(): wait for it, then take what is left.
				await polling;
				// A bot that never learnt who it is (getMe still failing) never took an update either.
				if (old.isInited()) await this.#drain(old);
			}
			swap();
			next.botInfo = me;
			this.#bot = next;
			this.#probe = this.#probeFor(next);
		} finally {
			this.#switching = false;
		}
		if (this.#wanted) this.start();
	}

	/** The old bot's waiting updates, handled in order and confirmed, before its token is given up. */
	async #drain(bot: Bot<BotContext>): Promise<void> {
		// grammY's own record of the last update it began to handle (the offset its stop() confirmed from).
		let offset = (bot as unknown as { lastTriedUpdateId: number }).lastTriedUpdateId + 1;
		try {
			for (let batch = 0; batch < DRAIN_BATCHES; batch++) {
				const updates = await bot.api.getUpdates({ offset, timeout: 0, limit: 100 });
				if (updates.length === 0) return; // this call confirmed everything before `offset`
				for (const update of updates) {
					offset = update.update_id + 1;
					await bot.handleUpdate(update).catch((error: unknown) => {
						if (error instanceof BotError) return bot.errorHandler(error);
						this.logger.error({ err: error, updateId: update.update_id }, 'bot handler failed');
					});
				}
			}
			await bot.api.getUpdates({ offset, timeout: 0, limit: 1 });
			this.logger.warn('the old bot still had updates waiting after the handover; the rest stay with it');
		} catch (error) {
			// A revoked token answers 401: its updates cannot be fetched any more; the same bot's new
			// token gets them, and the guest handlers skip what was handled (processed_updates).
			this.logger.warn({ err: error }, "could not hand over the old bot's waiting updates");
		}
	}

	#confirmFailed(error: unknown): void {
		this.logger.warn({ err: error }, 'the old bot could not confirm its last updates');
	}
}

/** Waits `ms`, or less when `stopped` aborts (a switch or a stop must not wait out a retry). */
function delay(ms: number, stopped: AbortSignal): Promise<void> {
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

/** The promise's value, or false when it takes longer than `ms`. */
async function within<T>(promise: Promise<T> | undefined, ms: number): Promise<T | false> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	try {
		return await Promise.race([promise ?? Promise.resolve(false as const), late]);
	} finally {
		clearTimeout(timer);
	}
}
