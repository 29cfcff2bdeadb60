import { Composer } from 'grammy';
import { readMaintenance } from '../../../lib/server/settings/maintenance.ts';
import type { BotContext } from '../context.ts';
import { botText } from '../../../lib/i18n/bot.ts';

/**
 * While `settings.maintenance` is set, guests get a polite pause message and nothing else runs.
 * Admins pass through so they can still /resume; the sales group's buttons keep working.
 */
export function maintenanceFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.use(async (ctx, next) => {
		const isAdmin = ctx.from !== undefined && ctx.deps.config.ADMIN_TELEGRAM_IDS.includes(BigInt(ctx.from.id));
		if (isAdmin || ctx.chat?.type !== 'private') return next();
		if (!(await readMaintenance(ctx.deps.db))) return next();
		if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: botText(ctx.locale, 'paused'), show_alert: true });
		else await ctx.reply(botText(ctx.locale, 'paused'));
	});
	return composer;
}
