import { leadCardOutbox } from '../../lib/server/leads/lead-card-outbox.ts';
import { runOutboxPass } from '../../lib/server/outbox/outbox-driver.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';

/**
 * The publication task: one pass of the lead card outbox (leads/lead-card-outbox.ts) through the
 * outbox driver. Without a sales group configured the leads wait in the outbox untouched.
 */
export async function publishPendingLeads(
	deps: LeadsTaskDeps,
	shouldStop: () => boolean = () => false
): Promise<number> {
	if (deps.chatId === null) return 0;
	return runOutboxPass(leadCardOutbox(deps, deps.chatId), { ...deps, shouldStop });
}
