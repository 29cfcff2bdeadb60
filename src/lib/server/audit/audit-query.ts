import type { Db } from '../db/client.ts';
import { auditDetailWords } from './audit-details.ts';

export interface AuditFilter {
	action?: string;
	actor?: string;
	/** A guest's Telegram id or a job id, as typed into the filter box. */
	subject?: string;
	limit?: number;
	beforeId?: number;
}

export interface AuditRow {
	id: number;
	ts: string;
	actor: string;
	ip: string | null;
	action: string;
	telegramUserId: string | null;
	jobId: number | null;
	details: string | null;
	/** The details in words (audit-details.ts): what the Audit page shows instead of the stored JSON. */
	detailWords: string;
}

/** Newest first, page by page (`beforeId`); the ts index keeps it cheap at any size. */
export async function listAuditEntries(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
	const subject = filter.subject?.trim();
	const numeric = subject && /^\d{1,20}$/.test(subject) ? subject : null;
	const rows = await db.auditLog.findMany({
		where: {
			...(filter.action ? { action: filter.action } : {}),
			...(filter.actor ? { actor: { contains: filter.actor } } : {}),
			...(filter.beforeId ? { id: { lt: filter.beforeId } } : {}),
			...(subject
				? numeric
					? {
							OR: [
								{ telegramUserId: BigInt(numeric) },
								...(Number(numeric) <= 2 ** 31 ? [{ jobId: Number(numeric) }] : [])
							]
						}
					: { id: -1 }
				: {})
		},
		orderBy: { id: 'desc' },
		take: Math.min(filter.limit ?? 100, 500)
	});
	return rows.map((row) => ({
		...row,
		telegramUserId: row.telegramUserId?.toString() ?? null,
		detailWords: auditDetailWords(row.action, row.details)
	}));
}

export async function listAuditActors(db: Db): Promise<string[]> {
	const rows = await db.auditLog.findMany({
		distinct: ['actor'],
		select: { actor: true },
		orderBy: { actor: 'asc' },
		take: 200
	});
	return rows.map((row) => row.actor);
}
