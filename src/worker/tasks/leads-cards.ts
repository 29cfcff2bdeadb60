import { backoffDelayMs, describeFailure } from '../../lib/server/leads/backoff.ts';
import { claimCardEdit, completeCardEdit, postponeCardEdit, type ClaimedCardEdit } from '../../lib/server/leads/lead-card-edits.repository.ts';
import { countRepeats } from '../../lib/server/leads/lead-outbox.repository.ts';
import { renderLeadCard } from '../bot/features/leads-card.ts';
import { isCardGone, isNotModified, noteFloodControl, OUTBOX_LEASE_MS, type LeadsTaskDeps } from './leads-deps.ts';

/**
 * Re-renders cards asked for in lead_card_edits (status changes from the console or the group,
 * erasures, repeats). An edit is idempotent, so unlike posting it may simply be retried.
 */
const EDITS_PER_PASS = 10;
const MAX_EDIT_ATTEMPTS = 10;

export async function applyPendingCardEdits(deps: Pick<LeadsTaskDeps, 'db' | 'clock' | 'logger' | 'api' | 'locale' | 'cooldown' | 'random'>): Promise<number> {
	let edited = 0;
	for (let i = 0; i < EDITS_PER_PASS; i++) {
		const claimed = await claimCardEdit(deps.db, deps.clock.now(), OUTBOX_LEASE_MS);
		if (!claimed) break;
		if (await applyCardEdit(deps, claimed)) edited++;
	}
	return edited;
}

/** Refreshes one lead's card now if an edit is pending (after a button press or /stickers_forget). */
export async function refreshLeadCardNow(deps: Pick<LeadsTaskDeps, 'db' | 'clock' | 'logger' | 'api' | 'locale' | 'cooldown' | 'random'>, leadId: number): Promise<boolean> {
	const claimed = await claimCardEdit(deps.db, deps.clock.now(), OUTBOX_LEASE_MS, leadId);
	return claimed ? applyCardEdit(deps, claimed) : false;
}

async function applyCardEdit(deps: Pick<LeadsTaskDeps, 'db' | 'clock' | 'logger' | 'api' | 'locale' | 'cooldown' | 'random'>, claimed: ClaimedCardEdit): Promise<boolean> {
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

async function recordEditFailure(deps: Pick<LeadsTaskDeps, 'db' | 'clock' | 'logger' | 'cooldown' | 'random'>, claimed: ClaimedCardEdit, chatId: bigint, error: unknown): Promise<false> {
	const attempts = claimed.attempts + 1;
	if (isCardGone(error) || attempts >= MAX_EDIT_ATTEMPTS) {
		deps.logger.warn({ leadId: claimed.leadId, attempts, error: describeFailure(error) }, 'lead card cannot be edited; giving up on this edit');
		await completeCardEdit(deps.db, claimed);
		return false;
	}
	const wait = noteFloodControl(deps, chatId, error);
	const retryAt = new Date(deps.clock.now().getTime() + backoffDelayMs(attempts, wait, deps.random));
	await postponeCardEdit(deps.db, claimed, retryAt, describeFailure(error), true);
	return false;
}
