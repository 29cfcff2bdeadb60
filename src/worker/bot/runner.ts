import { Api, type Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { BotContext } from './context.ts';
import { pause, UpdatePoll, type UpdatePollDeps } from './update-poll.ts';
import { within } from '../../lib/server/time/within.ts';

/** One getMe at start may take this long: a Telegram that never answers is reported, not waited for. */
const GET_ME_TIMEOUT_SECONDS = 10;
/**
 * How long stopping waits for the updates being handled to end. A handler still running after it
 * (a reply in Telegram's retries) is left: its update stays waiting in the inbox and the next
 * poller handles it; processed_updates keeps a guest step to one effect.
 */
const STOP_HANDLERS_MS = 5_000;

/** What the runner needs besides the bot: the inbox's database, the bound on handlers, crash points. */
export type BotRunnerDeps = UpdatePollDeps;

/**
 * Long polling that survives Telegram (or the emulator) being unreachable at start: getMe is
 * retried with capped backoff instead of crashing the worker, and each failure is logged. Each
 * round polls through an UpdatePoll (update-poll.ts): updates are recorded in the inbox, confirmed,
 * and handled side by side per chat. Polling can be stopped and started again (a worker that loses
 * the updates lease stops, and starts when it holds it once more).
 */
export class BotRunner {
	/** The current round of polling; aborted by stop(), so a getMe still retrying gives up. */
	#round: AbortController | undefined;
	#polling: Promise<void> | undefined;
	/** The current round's poll, once getMe answered (its handlers may outlive the round's loop). */
	#poll: UpdatePoll | undefined;
	/** The last round's handlers ending: a new round waits for them before it takes up the inbox. */
	#closing: Promise<void> = Promise.resolve();
	/** getMe without the bot's auto-retry (which would retry a network error silently for ever). */
	#probe: Api;
	#bot: Bot<BotContext>;
	/** Whether the updates lease wants polling (start/stop); a switch of bots ends in this state. */
	#wanted = false;
	#switching = false;
	readonly #apiRoot: string;
	readonly #deps: BotRunnerDeps;

	constructor(bot: Bot<BotContext>, deps: BotRunnerDeps, telegram: { apiRoot: string }) {
		this.#bot = bot;
		this.#deps = deps;
		this.#apiRoot = telegram.apiRoot;
		this.#probe = this.#probeFor(bot);
	}

	/** The bot polling now (a new one after switchTo). */
	get bot(): Bot<BotContext> {
		return this.#bot;
	}

	/** Whether a round of polling runs (started and not stopped). */
	get polling(): boolean {
		return this.#round !== undefined && !this.#round.signal.aborted;
	}

	#probeFor(bot: Bot<BotContext>): Api {
		return new Api(bot.token, { apiRoot: this.#apiRoot, timeoutSeconds: GET_ME_TIMEOUT_SECONDS });
	}

	start(): void {
		this.#wanted = true;
		if (this.#switching) return; // the switch starts the new bot once it is built
		if (this.polling) return;
		const round = new AbortController();
		this.#round = round;
		this.#polling = this.#run(round.signal).catch((error: unknown) => {
			// Stopping aborts the call in flight (the long poll, or deleteWebhook right at start): no failure.
			if (!round.signal.aborted) this.#deps.logger.error({ err: error }, 'bot polling ended with an error');
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
				this.#deps.logger.warn({ err: error, retryInMs: waitMs }, 'Telegram not reachable yet (getMe failed)');
				await pause(waitMs, stopped);
			}
		}
		await this.#closing;
		if (stopped.aborted) return;
		const poll = new UpdatePoll(bot, this.#deps);
		this.#poll = poll;
		this.#deps.logger.info({ username: bot.botInfo.username }, 'bot polling started');
		await poll.run(stopped);
	}

	/**
	 * Ends polling: the long poll is aborted at once (what it took is in the inbox already), the
	 * updates being handled are given STOP_HANDLERS_MS to end, those waiting stay in the inbox for the
	 * next poller. A getMe still retrying is simply abandoned.
	 */
	async stop(): Promise<void> {
		this.#wanted = false;
		this.#round?.abort();
		await this.#polling;
		this.#polling = undefined;
		const poll = this.#poll;
		this.#poll = undefined;
		if (!poll) return;
		this.#closing = poll.close();
		if ((await within(this.#closing, STOP_HANDLERS_MS)) === 'late') {
			this.#deps.logger.info(
				'updates still being handled at stop; those that do not end are handled again by the next poller'
			);
		}
	}

	/**
	 * Hands polling from the current bot to `next` (a replaced token) at a poll-cycle boundary: the
	 * old bot's long poll is ended, what it still has waiting is fetched, recorded and confirmed, and
	 * every update taken is handled (nothing is left unanswered behind a token no one polls any more,
	 * nothing is fetched twice); only then `swap` runs (the senders' token changes) and the new bot
	 * polls, if the updates lease wants polling. A bot that is not polling is simply replaced.
	 */
	async switchTo(next: Bot<BotContext>, me: UserFromGetMe, swap: () => void): Promise<void> {
		this.#switching = true;
		try {
			if (this.polling) {
				this.#round?.abort();
				await this.#polling;
				// A bot that never learnt who it is (getMe still failing) never took an update either.
				const poll = this.#poll;
				this.#poll = undefined;
				if (poll) {
					await poll.drain();
					await poll.close();
				}
			}
			// Handlers of a round stopped earlier (the lease lost) still use the old token until they end.
			await this.#closing;
			swap();
			next.botInfo = me;
			this.#bot = next;
			this.#probe = this.#probeFor(next);
		} finally {
			this.#switching = false;
		}
		if (this.#wanted) this.start();
	}
}
