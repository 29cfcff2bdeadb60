import type { Bot } from 'grammy';
import type { Logger } from '../../lib/server/log/logger.ts';
import type { BotContext } from './context.ts';

const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;

/**
 * Long polling that survives Telegram (or the emulator) being unreachable at start: getMe is
 * retried with capped backoff instead of crashing the worker. grammY itself retries failed
 * getUpdates calls once polling runs.
 */
export class BotRunner {
	#stopping = false;
	#polling: Promise<void> | undefined;

	constructor(
		readonly bot: Bot<BotContext>,
		private readonly logger: Logger
	) {}

	start(): void {
		this.#polling = this.#run();
	}

	async #run(): Promise<void> {
		for (let attempt = 0; !this.#stopping; attempt++) {
			try {
				await this.bot.init();
				break;
			} catch (error) {
				const waitMs = Math.min(30_000, 1000 * 2 ** attempt);
				this.logger.warn({ err: error, retryInMs: waitMs }, 'Telegram not reachable yet (getMe failed)');
				await delay(waitMs);
			}
		}
		if (this.#stopping) return;
		this.logger.info({ username: this.bot.botInfo.username }, 'bot polling started');
		await this.bot.start({ allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false });
	}

	/** Ends polling (confirming handled updates). A getMe still retrying is simply abandoned. */
	async stop(): Promise<void> {
		this.#stopping = true;
		if (!this.bot.isRunning()) return;
		await this.bot.stop();
		await this.#polling?.catch((error: unknown) => this.logger.error({ err: error }, 'bot polling ended with an error'));
	}
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
