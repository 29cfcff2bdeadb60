import { claimReminder, findLeadsToRemind, releaseReminder } from '../../lib/server/leads/lead-reminders.ts';
import { leadText } from '../../lib/i18n/leads.ts';
import { noteFloodControl } from '../../lib/server/telegram/flood-control.ts';
import { leadTag } from '../../lib/server/telegram/lead-card.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/** Pings the card of each lead left without a status for over 2 hours — once per lead. */
export async function remindAboutIdleLeads(deps: LeadsTaskDeps): Promise<number> {
	let reminded = 0;
	for (const lead of await findLeadsToRemind(deps.db, deps.clock.now())) {
		const chatId = lead.chatId as bigint;
		if (deps.cooldown.isCooling(chatId, deps.clock.now())) break;
		const claimedAt = deps.clock.now();
		if (!(await claimReminder(deps.db, lead.id, claimedAt))) continue;
		try {
			await deps.api.sendMessage(Number(chatId), `⏰ ${leadTag(lead.id)} ${leadText(deps.locale, 'reminder')}`, {
				reply_parameters: { message_id: Number(lead.messageId), allow_sending_without_reply: true }
			});
			reminded++;
		} catch (error) {
			noteFloodControl(deps, chatId, error);
			await releaseReminder(deps.db, lead.id, claimedAt);
			deps.logger.warn({ leadId: lead.id, error: errorText(error) }, 'lead reminder not sent; will retry');
			break;
		}
	}
	return reminded;
}
