import { eraseExpiredLeads } from '../../lib/server/leads/lead-erasure.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';

/** Erases leads whose retention ran out (30 days for spam, 365 for others); cards follow via lead_card_edits. */
export async function eraseExpiredLeadData(deps: Pick<LeadsTaskDeps, 'db' | 'clock' | 'logger'>): Promise<number[]> {
	const erased = await eraseExpiredLeads(deps);
	if (erased.length > 0) deps.logger.info({ leadIds: erased }, 'lead contact data erased by retention');
	return erased;
}
