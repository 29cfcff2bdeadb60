import { leadRepeatOutbox } from '../../lib/server/leads/lead-repeat-outbox.ts';
import { runOutboxPass } from '../../lib/server/outbox/outbox-driver.ts';
import type { LeadsTaskDeps } from './leads-deps.ts';

/** The repeat task: one pass of the repeat ping outbox (leads/lead-repeat-outbox.ts) through the outbox driver. */
export async function notifyPendingRepeats(deps: LeadsTaskDeps): Promise<number> {
	return runOutboxPass(leadRepeatOutbox(deps, deps.chatId), deps);
}
