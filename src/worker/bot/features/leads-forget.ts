import { Composer } from 'grammy';
import { BACKUP_ROTATION_DAYS, eraseLead } from '../../../lib/server/leads/lead-erasure.ts';
import { isLeadAdmin, leadsSettingsFrom } from '../../../lib/server/leads/leads-config.ts';
import { formatTashkent } from '../../../lib/server/leads/tashkent-time.ts';
import { ChatCooldown } from '../../../lib/server/telegram/flood-control.ts';
import { refreshLeadCardNow } from '../../../lib/server/leads/lead-card-edit-outbox.ts';
import type { BotContext } from '../context.ts';
import { leadText } from '../../../lib/i18n/leads.ts';

/**
 * /stickers_forget <id>: a lead admin erases a lead's personal data at once (in the sales group or
 * in a private chat with the bot), audited as `lead_erase`. The reply says that backups keep it until they rotate out.
 */
export function leadsForgetFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const cooldown = new ChatCooldown();
	composer.command('stickers_forget', async (ctx) => {
		const settings = leadsSettingsFrom(await ctx.deps.runtime.read());
		if (!ctx.from || !isLeadAdmin(settings, ctx.from.id))
			return void (await ctx.reply(leadText(ctx.locale, 'forgetNotAllowed')));
		const id = /^#?(?:stickers_)?(\d{1,12})$/.exec(ctx.match.trim())?.[1];
		if (!id) return void (await ctx.reply(leadText(ctx.locale, 'forgetUsage')));
		// Audited as the bot's other admin actions are: `telegram:<id>`, in the erasure's transaction.
		const result = await eraseLead(ctx.deps, Number(id), {
			actor: { name: `telegram:${ctx.from.id}`, ip: null },
			details: { via: 'bot' }
		});
		if (result.outcome === 'not_found') return void (await ctx.reply(leadText(ctx.locale, 'forgetNotFound', { id })));
		const key = result.outcome === 'erased' ? 'forgetDone' : 'forgetAlready';
		ctx.deps.logger.info({ leadId: Number(id), by: ctx.from.id, outcome: result.outcome }, 'lead erased on request');
		await ctx.reply(
			leadText(ctx.locale, key, { id, days: BACKUP_ROTATION_DAYS, date: formatTashkent(result.erasedAt) })
		);
		const deps = { ...ctx.deps, api: ctx.api, budget: ctx.deps.sendPacing.budget, locale: settings.locale, cooldown };
		await refreshLeadCardNow(deps, Number(id)).catch((error: unknown) =>
			ctx.deps.logger.warn(
				{ err: error, leadId: Number(id) },
				'card edit after erasure failed; the card-edit task retries'
			)
		);
	});
	return composer;
}
