import { Composer } from 'grammy';
import { setLeadStatus } from '../../../lib/server/leads/lead-status.ts';
import { isLeadAdmin, leadsSettingsFrom } from '../../../lib/server/leads/leads-config.ts';
import { ChatCooldown } from '../../../lib/server/telegram/flood-control.ts';
import { LEAD_CALLBACK_PATTERN, leadCallbackSchema } from '../../../lib/server/telegram/lead-card.ts';
import { refreshLeadCardNow } from '../../../lib/server/leads/lead-card-edit-outbox.ts';
import type { BotContext } from '../context.ts';
import { leadText, statusLabel, type LeadTextKey } from '../../../lib/i18n/leads.ts';

/**
 * The status buttons on lead cards. Only the lead admins (console Settings, else ADMIN_TELEGRAM_IDS) may press them; anyone else gets an
 * alert and nothing is written. A change writes the lead, its history and a card edit request in
 * one transaction, then the card is edited at once (or by the card-edit task if that fails).
 */
export function leadsStatusFeature(): Composer<BotContext> {
	const composer = new Composer<BotContext>();
	const cooldown = new ChatCooldown();
	composer.callbackQuery(LEAD_CALLBACK_PATTERN, async (ctx) => {
		const t = (key: LeadTextKey) => leadText(ctx.locale, key);
		const settings = leadsSettingsFrom(await ctx.deps.runtime.read());
		if (!isLeadAdmin(settings, ctx.from.id))
			return void (await ctx.answerCallbackQuery({ text: t('notAllowed'), show_alert: true }));
		const parsed = leadCallbackSchema.safeParse(ctx.callbackQuery.data);
		if (!parsed.success) return void (await ctx.answerCallbackQuery({ text: t('leadGone'), show_alert: true }));
		const { leadId, status } = parsed.data;
		const change = await setLeadStatus(ctx.deps, leadId, status, {
			telegramUserId: BigInt(ctx.from.id),
			name: displayName(ctx.from)
		});
		if (change.outcome === 'not_found')
			return void (await ctx.answerCallbackQuery({ text: t('leadGone'), show_alert: true }));
		const label = statusLabel(ctx.locale, status);
		await ctx.answerCallbackQuery({
			text: change.outcome === 'changed' ? `${t('statusSet')}: ${label}` : `${t('statusAlready')}: ${label}`
		});
		if (change.outcome !== 'changed') return;
		const deps = { ...ctx.deps, api: ctx.api, budget: ctx.deps.sendPacing.budget, locale: settings.locale, cooldown };
		await refreshLeadCardNow(deps, leadId).catch((error: unknown) =>
			ctx.deps.logger.warn({ err: error, leadId }, 'card edit after a status change failed; the card-edit task retries')
		);
	});
	return composer;
}

/** "First Last (@username)" — what the card and the history show as who set a status. */
export function displayName(user: { first_name: string; last_name?: string; username?: string }): string {
	const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
	return user.username ? `${name} (@${user.username})` : name;
}
