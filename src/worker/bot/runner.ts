import { Api, type Bot } from 'grammy';
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
	readonly #probe: Api;

	constructor(
		readonly bot: Bot<BotContext>,
		private readonly logger: Logger,
		telegram: { apiRoot: string }
	) {
		this.#probe = new Api(bot.token, { apiRoot: telegram.apiRoot, timeoutSeconds: GET_ME_TIMEOUT_SECONDS });
	}

	start(): void {
		if (this.#round && !this.#round.signal.aborted) return;
		const round = new AbortController();
		this.#round = round;
		this.#polling = this.#run(round.signal).catch((error: unknown) => {
			// Stopping aborts the call in flight (the long poll, or deleteWebhook right at start): no failure.
			if (!round.signal.aborted) this.logger.error({ err: error }, 'bot polling ended with an error');
		});
	}

	async #run(stopped: AbortSignal): Promise<void> {
		for (let attempt = 0; !stopped.aborted; attempt++) {
			try {
				this.bot.botInfo = await this.#probe.getMe();
				break;
			} catch (error) {
				if (stopped.aborted) return;
				const waitMs = Math.min(30_000, 1000 * 2 ** attempt);
				this.logger.warn({ err: error, retryInMs: waitMs }, 'Telegram not reachable yet (getMe failed)');
				await delay(waitMs);
			}
		}
		if (stopped.aborted) return;
		this.logger.info({ username: this.bot.botInfo.username }, 'bot polling started');
		await this.bot.start({ allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false });
	}

	/**
	 * Ends polling: the long poll is aborted at once, handled updates are confirmed if Telegram
	 * answers within STOP_CONFIRM_MS. A getMe still retrying is simply abandoned.
	 */
	async stop(): Promise<void> {
		this.#round?.abort();
		if (!this.bot.isRunning()) return;
		const confirmed = this.bot.stop().then(
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
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
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
