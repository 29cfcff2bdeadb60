import { backoffDelayMs } from '../../lib/server/leads/backoff.ts';
import { claimLeadToPublish, countRepeats, recordLeadPublished, recordLeadPublishFailure } from '../../lib/server/leads/lead-outbox.repository.ts';
import type { Lead } from '../../lib/server/db/generated/client.ts';
import { noteFloodControl } from '../../lib/server/telegram/flood-control.ts';
import { renderLeadCard } from '../../lib/server/telegram/lead-card.ts';
import { OUTBOX_LEASE_MS } from '../../lib/server/telegram/outbox-api.ts';
import { recordRightAfterSend } from '../../lib/server/outbox/record-after-send.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/**
 * The publication outbox: every lead's card is posted to the sales group once.
 *
 *   claim (next_publish_at = now + lease) → sendMessage → record chat_id/message_id/published_at
 *
 * Failures count publish_attempts, keep publish_error and back off through next_publish_at; a
 * lead is never given up on. The remaining duplicate window: Telegram accepted the message but we
 * never recorded it — the process died (or the database refused the write for longer than our
 * retries) between the answer and the UPDATE, a few milliseconds. After the lease the lead is
 * posted again, so in that rare case a card appears twice rather than never. Everything else —
 * restarts, 429s, 5xx, timeouts before Telegram answers — posts exactly once. See docs/leads.md.
 */
const CARDS_PER_PASS = 10;

export async function publishPendingLeads(deps: LeadsTaskDeps, shouldStop: () => boolean = () => false): Promise<number> {
	const chatId = deps.chatId;
	if (chatId === null) return 0;
	let posted = 0;
	for (let i = 0; i < CARDS_PER_PASS && !shouldStop(); i++) {
		if (deps.cooldown.isCooling(chatId, deps.clock.now())) break;
		const lead = await claimLeadToPublish(deps.db, deps.clock.now(), OUTBOX_LEASE_MS);
		if (!lead) break;
		if (!(await publishLead(deps, chatId, lead))) break;
		posted++;
	}
	return posted;
}

async function publishLead(deps: LeadsTaskDeps, chatId: bigint, lead: Lead): Promise<boolean> {
	const card = renderLeadCard(deps.locale, { lead, repeats: await countRepeats(deps.db, lead.id) });
	let message;
	try {
		message = await deps.api.sendMessage(Number(chatId), card.text, { reply_markup: card.keyboard, link_preview_options: { is_disabled: true } });
	} catch (error) {
		await recordFailure(deps, chatId, lead, error);
		return false;
	}
	await recordPosted(deps, lead.id, BigInt(message.chat.id), BigInt(message.message_id));
	deps.logger.info({ leadId: lead.id, messageId: message.message_id }, 'lead card posted');
	return true;
}

/** Right after the send, nothing else in between (recordRightAfterSend retries: losing this write means a duplicate card later). */
async function recordPosted(deps: LeadsTaskDeps, leadId: number, chatId: bigint, messageId: bigint): Promise<void> {
	await recordRightAfterSend(() => recordLeadPublished(deps.db, deps.clock.now(), leadId, chatId, messageId), deps.logger, { leadId, messageId: Number(messageId) });
}

async function recordFailure(deps: LeadsTaskDeps, chatId: bigint, lead: Lead, error: unknown): Promise<void> {
	const wait = noteFloodControl(deps, chatId, error);
	const delay = backoffDelayMs(lead.publishAttempts + 1, wait, deps.random);
	const retryAt = new Date(deps.clock.now().getTime() + delay);
	await recordLeadPublishFailure(deps.db, lead.id, errorText(error), retryAt);
	deps.logger.warn({ leadId: lead.id, attempts: lead.publishAttempts + 1, retryAt: retryAt.toISOString(), error: errorText(error) }, 'lead card not posted; will retry');
}
