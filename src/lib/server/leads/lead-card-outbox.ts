import type { Locale } from '../../i18n/locale.ts';
import type { Db } from '../db/client.ts';
import type { Lead } from '../db/generated/client.ts';
import type { OutboxSender } from '../outbox/outbox-driver.ts';
import type { TelegramApi } from '../telegram/api.ts';
import { renderLeadCard } from '../telegram/lead-card.ts';
import { OUTBOX_LEASE_MS } from '../telegram/outbox-api.ts';
import type { Clock } from '../time/clock.ts';
import { LEADS_BACKOFF } from './backoff.ts';
import {
	claimLeadToPublish,
	countRepeats,
	recordLeadPublished,
	recordLeadPublishFailure
} from './lead-outbox.repository.ts';

/**
 * The publication outbox as a sender of the outbox driver: every lead's card is posted to the
 * sales group once.
 *
 *   claim (next_publish_at = now + lease) → sendMessage → record chat_id/message_id/published_at
 *
 * Failures count publish_attempts, keep publish_error and back off through next_publish_at; a
 * lead is never given up on (the group is the staff's to fix). The places in the send budget are
 * taken by the leads' paced client (leads-deps.ts). The remaining duplicate window: Telegram
 * accepted the message but we never recorded it — the process died (or the database refused the
 * write for longer than the driver's retries) between the answer and the UPDATE. After the lease
 * the lead is posted again, so in that rare case a card appears twice rather than never. See docs/leads.md.
 */
export interface LeadCardOutboxDeps {
	db: Db;
	clock: Clock;
	api: TelegramApi;
	locale: Locale;
}

type Card = ReturnType<typeof renderLeadCard>;
type Posted = { chatId: bigint; messageId: bigint };

export function leadCardOutbox(deps: LeadCardOutboxDeps, chatId: bigint): OutboxSender<Lead, Card, Posted> {
	return {
		name: 'lead card',
		perPass: 10,
		ladder: { backoff: LEADS_BACKOFF, maxAttempts: null, recipient: 'group', floodCountsAsAttempt: true },
		places: 'client',
		oneChat: chatId,
		claim: (now) => claimLeadToPublish(deps.db, now, OUTBOX_LEASE_MS),
		attempt: (lead) => lead.publishAttempts + 1,
		chatId: () => chatId,
		describe: (lead) => ({ leadId: lead.id }),
		prepare: async (lead) => ({
			message: renderLeadCard(deps.locale, { lead, repeats: await countRepeats(deps.db, lead.id) })
		}),
		async send(_lead, card) {
			const message = await deps.api.sendMessage(Number(chatId), card.text, {
				reply_markup: card.keyboard,
				link_preview_options: { is_disabled: true }
			});
			return { chatId: BigInt(message.chat.id), messageId: BigInt(message.message_id) };
		},
		recordSent: (lead, _card, posted) =>
			recordLeadPublished(deps.db, deps.clock.now(), lead.id, posted.chatId, posted.messageId),
		postpone: (lead, retryAt, error, counts) =>
			recordLeadPublishFailure(deps.db, lead.id, error ?? 'waiting for Telegram flood control', retryAt, counts),
		// Never: maxAttempts is null and the group's 403/400 are retried.
		end: async (lead, as) => {
			throw new Error(`a lead card is never given up (lead ${lead.id}, ${as})`);
		}
	};
}
