import { Bot, BotError, type Api } from 'grammy';
import { isBlockedByUser } from '../../lib/server/telegram/errors.ts';
import { applyTelegramRetryPolicy } from '../../lib/server/telegram/retry-policy.ts';
import { tolerateLateCallbackAnswers } from '../../lib/server/telegram/late-callback-answers.ts';
import { paceThroughBudget } from '../../lib/server/telegram/send-budget-api.ts';
import type { BotContext, BotDeps } from './context.ts';
import { localeFeature } from './features/locale.ts';
import { guestForgetFeature } from './features/guest-forget.ts';
import { broadcastOptOutFeature } from './features/broadcast-opt-out.ts';
import { operatorLinkFeature } from './features/operator-link.ts';
import { leadsGroupChatIdFeature } from './features/leads-group-chat-id.ts';
import { newsOptInFeature } from './features/news-opt-in.ts';
import { maintenanceFeature } from './features/maintenance.ts';
import { adminPauseFeature } from './features/admin-pause.ts';
import { welcomeFeature } from './features/welcome.ts';
import { guestStartFeature } from './features/guest-start.ts';
import { consentFeature } from './features/consent.ts';
import { outfitFeature } from './features/outfit.ts';
import { cancelFeature } from './features/cancel.ts';
import { leadsForgetFeature } from './features/leads-forget.ts';
import { leadsStatusFeature } from './features/leads-status.ts';
import { botText } from '../../lib/i18n/bot.ts';
import { installMessageHistory } from './message-history.ts';
import { clientOptions, type TelegramEndpoint } from '../../lib/server/telegram/bot-token.ts';

/** The bot's token and API root; `tokenInForce` (the worker's): its api reads the token at each call. */
export type CreateBotOptions = TelegramEndpoint;

/**
 * The bot with its features in order; `apiRoot` points it at Telegram or at the emulator. `deps.runtime`
 * is the worker's one reader of the settings in force, always handed in: the bot, the scheduled tasks
 * and the queue read through one cache, so a changed setting (admins, sales group, language) reaches
 * them all at the same moment.
 */
export function createBot(
	options: CreateBotOptions,
	deps: BotDeps,
	otherSenders: readonly Api[] = []
): Bot<BotContext> {
	const bot = new Bot<BotContext>(options.token, { client: clientOptions(options) });
	// Before auto-retry: each retried call takes its own place. Each update's ctx.api copies these.
	paceThroughBudget(bot.api, deps.sendPacing);
	applyTelegramRetryPolicy(bot.api);
	tolerateLateCallbackAnswers(bot.api);
	installMessageHistory(bot, deps, otherSenders); // before every feature: history sees each private update and reply
	bot.use(localeFeature(deps));
	bot.use(guestForgetFeature());
	bot.use(broadcastOptOutFeature());
	bot.use(operatorLinkFeature());
	bot.use(leadsGroupChatIdFeature());
	bot.use(newsOptInFeature());
	bot.use(maintenanceFeature());
	bot.use(adminPauseFeature());
	bot.use(welcomeFeature());
	bot.use(guestStartFeature());
	bot.use(consentFeature());
	bot.use(outfitFeature());
	bot.use(cancelFeature());
	bot.use(leadsStatusFeature());
	bot.use(leadsForgetFeature());
	bot.catch((error) => reportBotError(error, deps));
	return bot;
}

/** The error boundary: log with the update, tell a guest something human, never crash polling. */
async function reportBotError(error: BotError<BotContext>, deps: BotDeps): Promise<void> {
	const cause = error.error;
	deps.logger.error({ err: cause, updateId: error.ctx.update.update_id }, 'bot handler failed');
	if (isBlockedByUser(cause)) return;
	if (error.ctx.chat?.type !== 'private') return;
	await error.ctx.reply(botText(error.ctx.locale ?? 'en', 'somethingWentWrong')).catch(() => undefined);
}
