import { Composer } from 'grammy';
import { readMaintenance } from '../../../lib/server/settings/maintenance.ts';
import type { BotContext } from '../context.ts';
import { botText } from '../../../lib/i18n/bot.ts';

/**
 * While `settings.maintenance` is set, guests get a polite pause message and nothing else runs.
 * Admins pass through so they can still /resume; the sales group's buttons keep working.
 */
/** Telegram shows at most 200 characters in a button press's alert. */
const CALLBACK_ANSWER_MAX = 200;

export function maintenanceFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	composer.use(async (ctx, next) => {
		const isAdmin = ctx.from !== undefined && (await ctx.deps.runtime.read()).adminIds.includes(BigInt(ctx.from.id));
		if (isAdmin || ctx.chat?.type !== 'private') return next();
		const maintenance = await readMaintenance(ctx.deps.db);
		if (!maintenance) return next();
		// The operator's words for guests go along; the staff's reason never does.
		const text = maintenance.guestNote
			? botText(ctx.locale, 'pausedWithNote', { note: maintenance.guestNote })
			: botText(ctx.locale, 'paused');
		if (ctx.callbackQuery)
			await ctx.answerCallbackQuery({ text: text.slice(0, CALLBACK_ANSWER_MAX), show_alert: true });
		else await ctx.reply(text);
	});
	return composer;
}
