import { Composer } from 'grammy';
import { LOCALES, pickLocale } from '../../../lib/i18n/locale.ts';
import type { BotContext, BotDeps } from '../context.ts';

/** Puts the sender's language (from Telegram's language_code) and the deps on the context. */
export function localeFeature(deps: BotDeps): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.use(async (ctx, next) => {
		ctx.deps = deps;
		// A language none of ours gets the default language in force (console Settings, else DEFAULT_LANGUAGE).
		ctx.locale = isOurLanguage(ctx.from?.language_code)
			? pickLocale(ctx.from?.language_code)
			: (await deps.runtime.read()).defaultLanguage;
		await next();
	});
	return composer;
}

function isOurLanguage(tag: string | undefined): boolean {
	const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
	return (LOCALES as readonly string[]).includes(primary);
}
