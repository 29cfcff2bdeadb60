import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';
import { botText } from '../../../lib/i18n/bot.ts';

/** A bare /start (opened the bot without scanning a kiosk QR) explains how to begin. */
export function welcomeFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.chatType('private').command(['start', 'help'], async (ctx, next) => {
		if (ctx.match.trim() !== '') return next();
		await ctx.reply(botText(ctx.locale, 'welcomeWithoutToken'));
	});
	return composer;
}
