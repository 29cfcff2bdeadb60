import type { LeadFormInput } from '../../schemas/lead-form.ts';
import type { Db, Tx } from '../db/client.ts';
import { Prisma, type Lead, type LeadRepeat } from '../db/generated/client.ts';

/** Queries of the landing intake (the only place besides the other leads repositories that runs them). */

export type { Lead, LeadRepeat };

/** A lead row: the submission's fields (checked and normalised) and what the server adds. */
export type NewLead = LeadFormInput & { createdAt: string; locale: string; ipHash: string };

export type NewRepeat = Pick<LeadRepeat, 'leadId' | 'requestId' | 'at'> &
	Partial<
		Pick<LeadRepeat, 'telegram' | 'phone' | 'eventDate' | 'guests' | 'comment' | 'locale' | 'utmSource' | 'ipHash'>
	>;

/** The lead a request id already made, as a lead or as a repeat of one. */
export async function findLeadIdByRequestId(tx: Db | Tx, requestId: string): Promise<number | null> {
	const lead = await tx.lead.findUnique({ where: { requestId }, select: { id: true } });
	if (lead) return lead.id;
	const repeat = await tx.leadRepeat.findUnique({ where: { requestId }, select: { leadId: true } });
	return repeat?.leadId ?? null;
}

/** Submissions stored from one hashed IP since a moment (leads and repeats). */
export async function countSubmissionsFromIpSince(tx: Db | Tx, ipHash: string, since: string): Promise<number> {
	const leads = await tx.lead.count({ where: { ipHash, createdAt: { gte: since } } });
	const repeats = await tx.leadRepeat.count({ where: { ipHash, at: { gte: since } } });
	return leads + repeats;
}

/**
 * The newest lead created since `since` with the same Telegram username (case-insensitive, as
 * Telegram treats them) or the same phone. Raw SQL because Prisma's SQLite filters cannot
 * compare case-insensitively; idx_leads_created narrows the scan to the last day. Only the
 * contacts given are compared (a NULL parameter has no type PostgreSQL could infer).
 */
export async function findRecentLeadByContact(
	tx: Db | Tx,
	contact: { telegram?: string; phone?: string },
	since: string
): Promise<Lead | null> {
	if (!contact.telegram && !contact.phone) return null;
	const sameContact = [
		...(contact.telegram !== undefined ? [Prisma.sql`lower(telegram) = lower(${contact.telegram})`] : []),
		...(contact.phone !== undefined ? [Prisma.sql`phone = ${contact.phone}`] : [])
	];
	const rows = await tx.$queryRaw<{ id: number }[]>`
		SELECT id FROM leads
		WHERE created_at >= ${since} AND erased_at IS NULL AND (${Prisma.join(sameContact, ' OR ')})
		ORDER BY created_at DESC, id DESC LIMIT 1`;
	const id = rows[0]?.id;
	return id === undefined ? null : tx.lead.findUnique({ where: { id: Number(id) } });
}

export async function insertLead(tx: Db | Tx, lead: NewLead): Promise<Lead> {
	return tx.lead.create({ data: lead });
}

export async function insertRepeat(tx: Db | Tx, repeat: NewRepeat): Promise<LeadRepeat> {
	return tx.leadRepeat.create({ data: repeat });
}
