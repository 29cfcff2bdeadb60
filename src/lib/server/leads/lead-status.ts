import type { LeadStatus } from '../../schemas/lead-status.ts';
import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import type { Lead } from '../db/generated/client.ts';
import type { Clock } from '../time/clock.ts';
import { requestCardEdit } from './lead-card-edits.repository.ts';

/**
 * Who set a status. From the sales group: the admin's Telegram id and display name. From the
 * console: CONSOLE_ACTOR_ID (0, not a Telegram id) and "console: <operator>".
 */
export interface StatusActor {
	telegramUserId: bigint;
	name: string;
}

export const CONSOLE_ACTOR_ID = 0n;

export type StatusChange = { outcome: 'changed' | 'unchanged'; lead: Lead } | { outcome: 'not_found' };

/**
 * Sets a lead's status: leads.status/status_by/status_by_name/status_at, one lead_status_history
 * row and a card edit request — all in one transaction. Pressing the current status writes
 * nothing, which also makes a replayed button update harmless: the lead's row is locked before
 * it is read, so two presses at once (a worker and the console, on PostgreSQL) see each other.
 */
export async function setLeadStatus(deps: { db: Db; clock: Clock }, leadId: number, status: LeadStatus, actor: StatusActor): Promise<StatusChange> {
	const now = deps.clock.now();
	const at = now.toISOString();
	return deps.db.$transaction(async (tx) => {
		await lockRows(tx, 'leads', 'id', [leadId]);
		const lead = await tx.lead.findUnique({ where: { id: leadId } });
		if (!lead) return { outcome: 'not_found' };
		if (lead.status === status) return { outcome: 'unchanged', lead };
		const name = actor.name.slice(0, 200);
		const updated = await tx.lead.update({
			where: { id: leadId },
			data: { status, statusBy: actor.telegramUserId, statusByName: name, statusAt: at }
		});
		await tx.leadStatusHistory.create({ data: { leadId, status, byUserId: actor.telegramUserId, byName: name, at } });
		await requestCardEdit(tx, leadId, now);
		return { outcome: 'changed', lead: updated };
	});
}
