import { leadText } from '../../i18n/leads.ts';
import { isNotModified, isUneditable } from '../telegram/errors.ts';
import { leadTag } from '../telegram/lead-card.ts';
import type { LeadCardDeps } from './lead-card-edit-outbox.ts';
import { findPingsToScrub, recordPingScrubbed } from './lead-outbox.repository.ts';
import { formatTashkent } from './tashkent-time.ts';

/**
 * A repeat's ping in the sales group quotes the repeat's phone, @username and comment, so an erased
 * lead's pings are edited to say only that the details were erased — as the card is. Edited, not
 * deleted: a bot may delete its own group messages only for 48 hours, while a lead is erased up to
 * a year later. Runs inside the card edit of an erased lead (lead_card_edits), so it is as durable
 * as the card's: a ping whose edit fails keeps its message id and the card edit is retried.
 */
export type PingScrub = { ok: true } | { ok: false; error: unknown };

export async function scrubRepeatPings(
	deps: LeadCardDeps,
	lead: { id: number; chatId: bigint; erasedAt: string }
): Promise<PingScrub> {
	const text = erasedPingText(deps, lead.id, lead.erasedAt);
	for (const ping of await findPingsToScrub(deps.db, lead.id)) {
		try {
			await deps.api.editMessageText(Number(lead.chatId), Number(ping.pingMessageId), text);
		} catch (error) {
			// Deleted by someone in the group, or already edited: nothing of the lead is left in it.
			if (!isNotModified(error) && !isUneditable(error)) return { ok: false, error };
		}
		await recordPingScrubbed(deps.db, ping.id);
	}
	return { ok: true };
}

export function erasedPingText(deps: Pick<LeadCardDeps, 'locale'>, leadId: number, erasedAt: string): string {
	return `🔁 ${leadText(deps.locale, 'repeatPing')} ${leadTag(leadId)}\n🔒 ${leadText(deps.locale, 'erased')} (${formatTashkent(erasedAt)})`;
}
