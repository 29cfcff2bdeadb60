import type { LeadStatus } from '../../schemas/lead-status.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import type { Lead } from '../db/generated/client.ts';
import type { Clock } from '../time/clock.ts';
import { requestCardEdit } from './lead-card-edits.repository.ts';
import type { LeadAudit } from './lead-erasure.ts';

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
 * With `audit` (the console and /api/v1), the `lead_status` row — `{ leadId, status, outcome }` and
 * `audit.details` — is written in the same transaction, for a change and for an unchanged press alike.
 */
export async function setLeadStatus(
	deps: { db: Db; clock: Clock },
	leadId: number,
	status: LeadStatus,
	actor: StatusActor,
	audit?: LeadAudit
): Promise<StatusChange> {
	const now = deps.clock.now();
	const at = now.toISOString();
	return deps.db.$transaction(async (tx) => {
		await lockRows(tx, 'leads', 'id', [leadId]);
		const lead = await tx.lead.findUnique({ where: { id: leadId } });
		if (!lead) return { outcome: 'not_found' };
		const record = (outcome: 'changed' | 'unchanged') =>
			audit
				? recordAudit(tx, deps.clock, audit.actor, {
						action: 'lead_status',
						details: { leadId, status, outcome, ...audit.details }
					})
				: undefined;
		if (lead.status === status) {
			await record('unchanged');
			return { outcome: 'unchanged', lead };
		}
		const name = actor.name.slice(0, 200);
		const updated = await tx.lead.update({
			where: { id: leadId },
			data: { status, statusBy: actor.telegramUserId, statusByName: name, statusAt: at }
		});
		await tx.leadStatusHistory.create({ data: { leadId, status, byUserId: actor.telegramUserId, byName: name, at } });
		await requestCardEdit(tx, leadId, now);
		await record('changed');
		return { outcome: 'changed', lead: updated };
	});
}
