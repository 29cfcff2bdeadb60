import { InlineKeyboard } from 'grammy';
import { z } from 'zod';
import { leadText, statusLabel, type LeadTextKey } from '../../i18n/leads.ts';
import type { Locale } from '../../i18n/locale.ts';
import { LEAD_STATUSES, type LeadStatus } from '../../schemas/lead-status.ts';
import type { Lead } from '../db/generated/client.ts';
import { formatTashkent } from '../leads/tashkent-time.ts';

/**
 * A lead's card in the sales group: plain text (no parse mode, so nothing an organiser types can
 * break the markup) and the six status buttons. Callback data is `lead:<id>:<status>`.
 */
export const STATUS_MARK: Record<LeadStatus, string> = {
	new: '🆕',
	in_work: '🛠',
	contacted: '📞',
	deal: '✅',
	refused: '❌',
	spam: '🚫'
};

export const leadCallbackSchema = z
	.string()
	.regex(/^lead:\d{1,12}:[a-z_]+$/)
	.transform((data) => {
		const [, id, status] = data.split(':');
		return { leadId: Number(id), status: status as string };
	})
	.pipe(z.object({ leadId: z.number().int().positive(), status: z.enum(LEAD_STATUSES) }));

export const LEAD_CALLBACK_PATTERN = /^lead:\d+:[a-z_]+$/;

export interface LeadCardFacts {
	lead: Lead;
	repeats: { count: number; lastAt: string | null };
}

export function leadTag(id: number): string {
	return `#stickers_${id}`;
}

export function renderLeadCard(locale: Locale, facts: LeadCardFacts): { text: string; keyboard: InlineKeyboard } {
	return {
		text: renderCardText(locale, facts),
		keyboard: renderStatusButtons(locale, facts.lead.id, facts.lead.status)
	};
}

function renderCardText(locale: Locale, { lead, repeats }: LeadCardFacts): string {
	const t = (key: LeadTextKey) => leadText(locale, key);
	const status = lead.status as LeadStatus;
	const lines = [`${STATUS_MARK[status] ?? '•'} ${leadTag(lead.id)} · ${t('cardTitle')}`, ''];
	const add = (label: string, value: string | null | undefined) => {
		if (value) lines.push(`${label}: ${value}`);
	};
	if (lead.erasedAt) lines.push(`🔒 ${t('erased')} (${formatTashkent(lead.erasedAt)})`);
	add(t('name'), lead.name);
	add(t('telegram'), lead.telegram);
	add(t('phone'), lead.phone);
	add(t('eventDate'), lead.eventDate);
	add(t('guests'), lead.guests);
	add(t('comment'), lead.comment);
	add(t('language'), lead.locale);
	add(t('source'), [lead.utmSource, lead.utmMedium, lead.utmCampaign].filter(Boolean).join(' / ') || null);
	add(t('received'), formatTashkent(lead.createdAt));
	lines.push('');
	lines.push(
		lead.statusAt
			? `${t('statusLine')}: ${statusLabel(locale, status)} — ${t('setBy')} ${lead.statusByName ?? lead.statusBy ?? '?'}, ${formatTashkent(lead.statusAt)}`
			: `${t('statusLine')}: ${statusLabel(locale, status)} (${t('noStatusYet')})`
	);
	if (repeats.count > 0 && repeats.lastAt)
		lines.push(`🔁 ${t('repeats')}: ${repeats.count} (${t('last')} ${formatTashkent(repeats.lastAt)})`);
	return lines.join('\n');
}

/** Two rows of three; the current status is marked so a press on it is recognisably a no-op. */
export function renderStatusButtons(locale: Locale, leadId: number, current: string): InlineKeyboard {
	const keyboard = new InlineKeyboard();
	LEAD_STATUSES.forEach((status, index) => {
		const label = `${status === current ? '● ' : ''}${STATUS_MARK[status]} ${statusLabel(locale, status)}`;
		keyboard.text(label, `lead:${leadId}:${status}`);
		if (index === 2) keyboard.row();
	});
	return keyboard;
}
