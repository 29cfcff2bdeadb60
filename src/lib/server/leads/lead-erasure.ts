import { recordAudit, type Actor } from '../audit/audit-log.ts';
import type { Db } from '../db/client.ts';
import { eraseLeadRows } from '../lifecycle/lead-rows.ts';
import { prismaRunner } from '../lifecycle/sql-runner.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { requestCardEdit } from './lead-card-edits.repository.ts';

/**
 * Erasure of an organiser's personal data (on request, or by age): name,
 * telegram, phone, comment and ip_hash become NULL in leads and in its lead_repeats; erased_at is
 * set; the row, its status and its history stay so statistics do not change. The card in the
 * sales group is re-rendered without the contact details (lead_card_edits).
 *
 * erased_at is written once, by the same transaction that clears the fields, and never moved:
 * after a backup restore the lifecycle job re-applies every erasure by reading it, with the same
 * statements (lifecycle/lead-rows.ts).
 */
export const SPAM_RETENTION_MS = 30 * DAY;
export const LEAD_RETENTION_MS = 365 * DAY;
/** What the reply to /stickers_forget promises: daily backups rotate out after 14 days. */
export const BACKUP_ROTATION_DAYS = 14;

export type ErasureResult = { outcome: 'erased' | 'already_erased'; erasedAt: string } | { outcome: 'not_found' };

/** Who asked, for the `lead_erase` audit row; `details` are added to `{ leadId, outcome }`. */
export interface LeadAudit {
	actor: Actor;
	details?: Record<string, unknown>;
}

/**
 * With `audit`, the `lead_erase` row is written by the erasure's own transaction: an erasure is
 * never without its record, nor a record without the erasure (an unknown lead writes neither).
 */
export async function eraseLead(
	deps: { db: Db; clock: Clock },
	leadId: number,
	audit?: LeadAudit
): Promise<ErasureResult> {
	const now = deps.clock.now();
	return deps.db.$transaction(async (tx) => {
		const lead = await tx.lead.findUnique({ where: { id: leadId }, select: { erasedAt: true } });
		if (!lead) return { outcome: 'not_found' };
		const erasedAt = lead.erasedAt ?? now.toISOString();
		// Run again even when already erased: cheap, and it repairs a row a restore brought back.
		await eraseLeadRows(prismaRunner(tx), leadId, erasedAt);
		if (!lead.erasedAt) await requestCardEdit(tx, leadId, now);
		const outcome = lead.erasedAt ? 'already_erased' : 'erased';
		if (audit)
			await recordAudit(tx, deps.clock, audit.actor, {
				action: 'lead_erase',
				details: { leadId, outcome, ...audit.details }
			});
		return { outcome, erasedAt };
	});
}

/**
 * Leads whose retention ran out: 30 days after the last status change for spam, 365 days for
 * every other status, counted from status_at or, if the status never changed, from created_at.
 */
export async function findLeadsDueForErasure(db: Db, now: Date): Promise<number[]> {
	const spamCut = new Date(now.getTime() - SPAM_RETENTION_MS).toISOString();
	const otherCut = new Date(now.getTime() - LEAD_RETENTION_MS).toISOString();
	const olderThan = (cut: string) => ({ OR: [{ statusAt: { lt: cut } }, { statusAt: null, createdAt: { lt: cut } }] });
	const rows = await db.lead.findMany({
		where: {
			erasedAt: null,
			OR: [
				{ status: 'spam', ...olderThan(spamCut) },
				{ status: { not: 'spam' }, ...olderThan(otherCut) }
			]
		},
		select: { id: true },
		orderBy: { id: 'asc' }
	});
	return rows.map((row) => row.id);
}

export async function eraseExpiredLeads(deps: { db: Db; clock: Clock }): Promise<number[]> {
	const due = await findLeadsDueForErasure(deps.db, deps.clock.now());
	for (const id of due) await eraseLead(deps, id);
	return due;
}
