import { leadText, type LeadTextKey } from '../../i18n/leads.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { OutboxSender } from '../outbox/outbox-driver.ts';
import { leadTag } from '../telegram/lead-card.ts';
import { OUTBOX_LEASE_MS } from '../telegram/outbox-api.ts';
import { LEADS_BACKOFF } from './backoff.ts';
import { refreshLeadCardNow, type LeadCardDeps } from './lead-card-edit-outbox.ts';
import { requestCardEdit } from './lead-card-edits.repository.ts';
import {
	claimRepeatToNotify,
	recordRepeatFailure,
	recordRepeatNotified,
	type RepeatWithLead
} from './lead-outbox.repository.ts';

/**
 * The repeat outbox as a sender of the outbox driver: a repeat contact pings the card (a reply
 * listing what differs) and the card is re-rendered with the repeat count. A ping that keeps
 * failing is given up after MAX_NOTIFY_ATTEMPTS (notified_at set, notify_error says why): the card
 * still shows the repeat. The pings go to the sales group: a failure ends the pass, its cooldown
 * stops the claim, and the leads' paced client takes the places in the send budget.
 */
export const MAX_NOTIFY_ATTEMPTS = 10;

export function leadRepeatOutbox(
	deps: LeadCardDeps,
	groupChatId: bigint | null
): OutboxSender<RepeatWithLead, string, bigint> {
	return {
		name: 'repeat ping',
		perPass: 10,
		ladder: {
			backoff: LEADS_BACKOFF,
			maxAttempts: MAX_NOTIFY_ATTEMPTS,
			recipient: 'group',
			floodCountsAsAttempt: true
		},
		places: 'client',
		oneChat: groupChatId ?? undefined,
		claim: (now) => claimRepeatToNotify(deps.db, now, OUTBOX_LEASE_MS),
		attempt: (repeat) => repeat.notifyAttempts + 1,
		// Claimed only once the lead's card is posted, so its chat is known.
		chatId: (repeat) => repeat.lead.chatId as bigint,
		describe: (repeat) => ({ repeatId: repeat.id, leadId: repeat.leadId }),
		prepare: async (repeat) =>
			repeat.lead.erasedAt
				? { end: 'skipped', reason: 'no ping: the lead was erased' }
				: { message: describeRepeatPing(deps, repeat) },
		async send(repeat, text) {
			const reply_parameters = { message_id: Number(repeat.lead.messageId), allow_sending_without_reply: true };
			return BigInt((await deps.api.sendMessage(Number(repeat.lead.chatId), text, { reply_parameters })).message_id);
		},
		async recordSent(repeat, _text, pingMessageId) {
			const now = deps.clock.now();
			// The ping's id is kept so an erasure can edit it; the card edit asked for here also scrubs a
			// ping sent while the lead was being erased (the edit sees erased_at and this id).
			await deps.db.$transaction(async (tx) => {
				await recordRepeatNotified(tx, repeat.id, now, null, pingMessageId);
				await requestCardEdit(tx, repeat.leadId, now);
			});
			await refreshLeadCardNow(deps, repeat.leadId).catch((error: unknown) =>
				deps.logger.warn(
					{ err: error, leadId: repeat.leadId },
					'card refresh after a repeat failed; the edit stays queued'
				)
			);
		},
		postpone: (repeat, retryAt, error, counts) =>
			recordRepeatFailure(deps.db, repeat.id, error ?? 'waiting for Telegram flood control', retryAt, counts),
		async end(repeat, as, reason) {
			const note =
				as === 'poison' ? `gave up after ${repeat.notifyAttempts + 1} attempts: ${reason.slice(0, 240)}` : reason;
			await recordRepeatNotified(deps.db, repeat.id, deps.clock.now(), note);
		}
	};
}

export function describeRepeatPing(deps: { locale: Locale }, repeat: RepeatWithLead): string {
	const t = (key: LeadTextKey) => leadText(deps.locale, key);
	const lines = [`🔁 ${t('repeatPing')} ${leadTag(repeat.leadId)}`];
	const add = (label: string, value: string | null) => {
		if (value) lines.push(`${label}: ${value}`);
	};
	add(t('telegram'), repeat.telegram);
	add(t('phone'), repeat.phone);
	add(t('eventDate'), repeat.eventDate);
	add(t('guests'), repeat.guests);
	add(t('comment'), repeat.comment);
	if (lines.length === 1) lines.push(t('repeatSame'));
	add(t('language'), repeat.locale);
	add(t('source'), repeat.utmSource);
	return lines.join('\n');
}
