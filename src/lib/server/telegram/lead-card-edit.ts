import type { Locale } from '../../i18n/locale.ts';
import type { Db } from '../db/client.ts';
import { backoffDelayMs } from '../leads/backoff.ts';
import { errorText } from '../errors/error-text.ts';
import { claimCardEdit, completeCardEdit, postponeCardEdit, type ClaimedCardEdit } from '../leads/lead-card-edits.repository.ts';
import { countRepeats } from '../leads/lead-outbox.repository.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import type { TelegramApi } from './api.ts';
import { isNotModified, isUneditable } from './errors.ts';
import { noteFloodControl, type ChatCooldown } from './flood-control.ts';
import { renderLeadCard } from './lead-card.ts';
import { OUTBOX_LEASE_MS } from './outbox-api.ts';
import { scrubRepeatPings } from './repeat-ping-erasure.ts';

/**
 * Re-rendering a lead's card in the sales group, asked for in lead_card_edits (status changes from
 * the console or the group, erasures, repeats); for an erased lead also its repeat pings. The worker's card-edit task works through the
 * queue; the bot refreshes a card at once after a button press or /stickers_forget. An edit is
 * idempotent, so unlike posting it may simply be retried.
 */
export interface LeadCardDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	locale: Locale;
	cooldown: ChatCooldown;
	random?: () => number;
}

const MAX_EDIT_ATTEMPTS = 10;

/** Refreshes one lead's card now if an edit is pending (after a button press or /stickers_forget). */
export async function refreshLeadCardNow(deps: LeadCardDeps, leadId: number): Promise<boolean> {
	const claimed = await claimCardEdit(deps.db, deps.clock.now(), OUTBOX_LEASE_MS, leadId);
	return claimed ? applyCardEdit(deps, claimed) : false;
}

/** Edits the card of a claimed edit request; true when the card now shows the lead as it is. */
export async function applyCardEdit(deps: LeadCardDeps, claimed: ClaimedCardEdit): Promise<boolean> {
	const lead = await deps.db.lead.findUnique({ where: { id: claimed.leadId } });
	if (!lead) return completeCardEdit(deps.db, claimed).then(() => false);
	if (lead.chatId === null || lead.messageId === null) {
		// Not posted yet: the card will be posted as the lead is now; check again after the lease.
		await postponeCardEdit(deps.db, claimed, new Date(deps.clock.now().getTime() + OUTBOX_LEASE_MS), null, false);
		return false;
	}
	if (deps.cooldown.isCooling(lead.chatId, deps.clock.now())) {
		await postponeCardEdit(deps.db, claimed, deps.clock.now(), null, false);
		return false;
	}
	if (lead.erasedAt) {
		// The pings first: once the card shows the erasure, a retried edit of it is "not modified".
		const pings = await scrubRepeatPings(deps, { id: lead.id, chatId: lead.chatId, erasedAt: lead.erasedAt });
		if (!pings.ok) return recordEditFailure(deps, claimed, lead.chatId, pings.error);
	}
	const card = renderLeadCard(deps.locale, { lead, repeats: await countRepeats(deps.db, lead.id) });
	try {
		await deps.api.editMessageText(Number(lead.chatId), Number(lead.messageId), card.text, { reply_markup: card.keyboard });
	} catch (error) {
		if (isNotModified(error)) return completeCardEdit(deps.db, claimed).then(() => true);
		return recordEditFailure(deps, claimed, lead.chatId, error);
	}
	await completeCardEdit(deps.db, claimed);
	return true;
}

async function recordEditFailure(deps: LeadCardDeps, claimed: ClaimedCardEdit, chatId: bigint, error: unknown): Promise<false> {
	const attempts = claimed.attempts + 1;
	if (isUneditable(error) || attempts >= MAX_EDIT_ATTEMPTS) {
		deps.logger.warn({ leadId: claimed.leadId, attempts, error: errorText(error) }, 'lead card cannot be edited; giving up on this edit');
		await completeCardEdit(deps.db, claimed);
		return false;
	}
	const wait = noteFloodControl(deps, chatId, error);
	const retryAt = new Date(deps.clock.now().getTime() + backoffDelayMs(attempts, wait, deps.random));
	await postponeCardEdit(deps.db, claimed, retryAt, errorText(error), true);
	return false;
}
