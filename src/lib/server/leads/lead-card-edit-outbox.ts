import type { Locale } from '../../i18n/locale.ts';
import type { Db } from '../db/client.ts';
import type { Lead } from '../db/generated/client.ts';
import type { Logger } from '../log/logger.ts';
import { handleRow, runOutboxPass, type OutboxSender } from '../outbox/outbox-driver.ts';
import type { TelegramApi } from '../telegram/api.ts';
import { isNotModified } from '../telegram/errors.ts';
import type { ChatCooldown } from '../telegram/flood-control.ts';
import { renderLeadCard } from '../telegram/lead-card.ts';
import { OUTBOX_LEASE_MS } from '../telegram/outbox-api.ts';
import type { Clock } from '../time/clock.ts';
import { LEADS_BACKOFF } from './backoff.ts';
import {
	claimCardEdit,
	completeCardEdit,
	postponeCardEdit,
	type ClaimedCardEdit
} from './lead-card-edits.repository.ts';
import { countRepeats } from './lead-outbox.repository.ts';
import { scrubRepeatPings } from './repeat-ping-erasure.ts';
import type { BotBudget } from '../telegram/bot-budget.ts';

/**
 * Re-rendering a lead's card in the sales group, asked for in lead_card_edits (status changes from
 * the console or the group, erasures, repeats); for an erased lead also its repeat pings. A sender
 * of the outbox driver: the worker's card-edit task works through the queue; the bot refreshes a
 * card at once after a button press or /stickers_forget. An edit is idempotent ("message is not
 * modified" counts as done), so unlike posting it may simply be retried — up to MAX_EDIT_ATTEMPTS;
 * a 400/403 (the message is gone, too old, or the group is) ends the edit at once.
 */
export interface LeadCardDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** The sales group's client: its calls wait for their places in `budget` (paceThroughBudget). */
	api: TelegramApi;
	/** The bot's one send budget the client is paced by (the outbox driver requires it). */
	budget: BotBudget;
	locale: Locale;
	cooldown: ChatCooldown;
	random?: () => number;
}

export const MAX_EDIT_ATTEMPTS = 10;

type EditRow = ClaimedCardEdit & { lead: Lead | null };
type Card = ReturnType<typeof renderLeadCard>;

/** The card-edit task's pass: a few cards per pass. */
export async function applyPendingCardEdits(deps: LeadCardDeps): Promise<number> {
	return runOutboxPass(leadCardEditOutbox(deps), deps);
}

/** Refreshes one lead's card now if an edit is pending (after a button press or /stickers_forget). */
export async function refreshLeadCardNow(deps: LeadCardDeps, leadId: number): Promise<boolean> {
	const sender = leadCardEditOutbox(deps, leadId);
	const claimed = await sender.claim(deps.clock.now());
	return claimed ? (await handleRow(sender, deps, claimed)) === 'sent' : false;
}

function leadCardEditOutbox(deps: LeadCardDeps, leadId?: number): OutboxSender<EditRow, Card, void> {
	return {
		name: 'lead card edit',
		perPass: 10,
		ladder: { backoff: LEADS_BACKOFF, maxAttempts: MAX_EDIT_ATTEMPTS, recipient: 'person', floodCountsAsAttempt: true },
		places: 'client',
		async claim(now) {
			const edit = await claimCardEdit(deps.db, now, OUTBOX_LEASE_MS, leadId);
			return edit && { ...edit, lead: await deps.db.lead.findUnique({ where: { id: edit.leadId } }) };
		},
		attempt: (row) => row.attempts + 1,
		// 0 (no chat) for a card not posted yet: prepare puts it back.
		chatId: (row) => row.lead?.chatId ?? 0n,
		describe: (row) => ({ leadId: row.leadId }),
		async prepare({ lead }) {
			if (!lead) return { end: 'skipped', reason: 'the lead is gone' };
			// Not posted yet: the card will be posted as the lead is now; check again after the lease.
			if (lead.chatId === null || lead.messageId === null)
				return { later: new Date(deps.clock.now().getTime() + OUTBOX_LEASE_MS) };
			return { message: renderLeadCard(deps.locale, { lead, repeats: await countRepeats(deps.db, lead.id) }) };
		},
		async send({ lead }, card) {
			const chatId = lead!.chatId!;
			if (lead!.erasedAt) {
				// The pings first: once the card shows the erasure, a retried edit of it is "not modified".
				const pings = await scrubRepeatPings(deps, { id: lead!.id, chatId, erasedAt: lead!.erasedAt });
				if (!pings.ok) throw pings.error;
			}
			try {
				await deps.api.editMessageText(Number(chatId), Number(lead!.messageId), card.text, {
					reply_markup: card.keyboard
				});
			} catch (error) {
				if (!isNotModified(error)) throw error;
			}
		},
		recordSent: (row) => completeCardEdit(deps.db, row),
		postpone: (row, retryAt, error, counts) => postponeCardEdit(deps.db, row, retryAt, error, counts),
		end: (row) => completeCardEdit(deps.db, row)
	};
}
