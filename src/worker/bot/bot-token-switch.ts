import type { Bot, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Db } from '../../lib/server/db/client.ts';
import { rememberBotUsername } from '../../lib/server/guests/bot-identity.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import {
	clearBotTokenRefusal,
	recordBotTokenRefusal,
	tokenDigest
} from '../../lib/server/settings/bot-token-refusal.ts';
import { isTokenRefusal, probeBotToken, type BotTokenInForce } from '../../lib/server/telegram/bot-token.ts';
import { MINUTE, type Clock } from '../../lib/server/time/clock.ts';
import { ADMIN_ALERTS } from '../../lib/i18n/admin-alerts.ts';
import type { BotContext } from './context.ts';
import { keepEnvironmentBot, type EnvironmentBotDeps } from './environment-bot.ts';
import type { BotRunner } from './runner.ts';

function refusalSentence(error: GrammyError, outcome: string): string {
	return `Telegram refused the new bot token (${error.description}), so the bot ${outcome}. Check the token with @BotFather and save it again.`;
}

/**
 * The token a worker starts with: the console's when one is saved, unless Telegram refuses it —
 * a token refused while the worker ran must not stop the bot at the next start. Then the
 * environment's runs and the refusal is recorded for the pages (the admins were told when it was
 * first refused). Telegram unreachable at start decides nothing: the console's token is used.
 * The console's token of another bot than TELEGRAM_BOT_TOKEN's: that bot's token is kept for
 * /forget (environment-bot.ts), as a switch while running keeps it.
 */
export async function botTokenToStartWith(
	deps: { db: Db; clock: Clock } & EnvironmentBotDeps,
	environment: string,
	consoleToken: string | undefined
): Promise<string> {
	if (!consoleToken || consoleToken === environment) return environment;
	let me: UserFromGetMe;
	try {
		me = await probeBotToken(consoleToken, deps.apiRoot);
	} catch (error) {
		if (!isTokenRefusal(error)) return consoleToken;
		deps.logger.error(
			{ status: error.error_code },
			'the bot token saved on the console is refused by Telegram; starting with TELEGRAM_BOT_TOKEN'
		);
		const sentence = refusalSentence(error, 'runs with TELEGRAM_BOT_TOKEN from the environment');
		await recordBotTokenRefusal(deps.db, deps.clock, consoleToken, sentence);
		return environment;
	}
	await keepEnvironmentBot(deps, environment, me);
	return consoleToken;
}

export interface BotTokenSwitchDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	apiRoot: string;
	/** The token every Telegram client of this worker reads at each call. */
	tokenInForce: BotTokenInForce;
	runner: Pick<BotRunner, 'bot' | 'switchTo'>;
	/** A new bot with every feature, for a token (its api reads `tokenInForce` like the others). */
	buildBot: (token: string) => Bot<BotContext>;
	/** After a switch: what else names the bot (the pack names' `_by_<bot>`) follows the new one. */
	switched: (me: UserFromGetMe) => void;
	/** Tells the admins in Telegram (through the worker's alert client). */
	alertAdmins: (text: string) => Promise<void>;
	/**
	 * Keeps the token of a bot given up for another one (sealed, retired-bots.ts): only the bot that
	 * made a sticker set may delete it, and a guest's /forget must still reach the old bot's sets.
	 */
	retireBot: (bot: { username: string; token: string }) => Promise<void>;
}

/**
 * Takes a bot token replaced on the console (Settings) without a restart. Each runtime-settings
 * pass hands it the token in force; a new one is first asked getMe: Telegram refusing it (401, 404)
 * keeps the bot that runs, records a sentence for the Settings and Health pages and alerts the
 * admins once; Telegram unreachable decides nothing (asked again a minute later). An accepted
 * token gets a new bot: BotRunner.switchTo hands the updates over at a poll-cycle boundary, then
 * every client reads the new token, and the new @username is published for the kiosk QR codes.
 * The updates lease is not touched: the worker holding it polls the new bot, the others do not poll.
 */
export class BotTokenSwitch {
	readonly #deps: BotTokenSwitchDeps;
	/** The last token asked about that is not in force (a digest), and whether Telegram was unreachable. */
	#lastTry: { token: string; at: number; unreachable: boolean } | undefined;
	/** Whether the saved token was found to be the one in force (and any old refusal removed). */
	#inForceSettled = false;

	constructor(deps: BotTokenSwitchDeps) {
		this.#deps = deps;
	}

	async apply(wanted: string | undefined): Promise<void> {
		const { clock, tokenInForce } = this.#deps;
		if (!wanted) return;
		if (wanted === tokenInForce.value) {
			// The token in force is the one saved (again, after a refused one, or since this start):
			// a refusal recorded earlier no longer applies. Checked once, not at every pass.
			if (!this.#inForceSettled) await clearBotTokenRefusal(this.#deps.db);
			this.#inForceSettled = true;
			this.#lastTry = undefined;
			return;
		}
		this.#inForceSettled = false;
		const now = clock.now().getTime();
		const digest = tokenDigest(wanted);
		const last = this.#lastTry;
		if (last?.token === digest && (!last.unreachable || now - last.at < MINUTE)) return;
		let me: UserFromGetMe;
		try {
			me = await probeBotToken(wanted, this.#deps.apiRoot);
		} catch (error) {
			const refused = isTokenRefusal(error);
			this.#lastTry = { token: digest, at: now, unreachable: !refused };
			if (refused) await this.#refuse(wanted, error);
			else this.#deps.logger.warn({ err: error }, 'the new bot token waits: Telegram could not be reached for getMe');
			return;
		}
		await this.#switch(wanted, me);
	}

	async #refuse(token: string, error: GrammyError): Promise<void> {
		const { db, clock, logger } = this.#deps;
		const username = this.#currentUsername();
		const sentence = refusalSentence(error, `keeps running as @${username} with the token it had`);
		logger.error({ status: error.error_code }, 'bot token change refused by Telegram; the old bot keeps running');
		if (await recordBotTokenRefusal(db, clock, token, sentence))
			await this.#deps.alertAdmins(ADMIN_ALERTS.botTokenRefused(error.description, username));
	}

	async #switch(token: string, me: UserFromGetMe): Promise<void> {
		const { db, clock, logger, runner, tokenInForce } = this.#deps;
		const before = runner.bot.isInited() ? runner.bot.botInfo : undefined;
		// Kept before the switch: a failed write leaves the old bot running, and the next pass tries again.
		if (before && before.id !== me.id)
			await this.#deps.retireBot({ username: before.username, token: tokenInForce.value });
		await runner.switchTo(this.#deps.buildBot(token), me, () => tokenInForce.replace(token));
		this.#lastTry = undefined;
		this.#deps.switched(me);
		await rememberBotUsername(db, clock, me.username);
		await clearBotTokenRefusal(db);
		logger.info(
			{ from: before?.username, to: me.username, sameBot: before?.id === me.id },
			'bot token changed; the worker now runs the bot with the new token'
		);
	}

	#currentUsername(): string {
		const bot = this.#deps.runner.bot;
		return bot.isInited() ? bot.botInfo.username : 'the bot';
	}
}
