import { claimCardEdit } from '../../lib/server/leads/lead-card-edits.repository.ts';
import { applyCardEdit, type LeadCardDeps } from '../../lib/server/telegram/lead-card-edit.ts';
import { OUTBOX_LEASE_MS } from '../../lib/server/telegram/outbox-api.ts';

/** The card-edit task: works through lead_card_edits, a few cards per pass. */
const EDITS_PER_PASS = 10;

export async function applyPendingCardEdits(deps: LeadCardDeps): Promise<number> {
	let edited = 0;
	for (let i = 0; i < EDITS_PER_PASS; i++) {
		const claimed = await claimCardEdit(deps.db, deps.clock.now(), OUTBOX_LEASE_MS);
		if (!claimed) break;
		if (await applyCardEdit(deps, claimed)) edited++;
	}
	return edited;
}
