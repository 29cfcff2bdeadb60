import { Composer } from 'grammy';
import { pickLocale } from '../../../lib/i18n/locale.ts';
import type { BotContext, BotDeps } from '../context.ts';

/** Puts the sender's language (from Telegram's language_code) and the deps on the context. */
export function localeFeature(deps: BotDeps): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.use(async (ctx, next) => {
		ctx.deps = deps;
		ctx.locale = pickLocale(ctx.from?.language_code);
		await next();
	});
	return composer;
}
