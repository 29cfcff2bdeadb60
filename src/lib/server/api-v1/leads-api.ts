import type { LeadStatus } from '../../schemas/lead-status.ts';
import type { Db } from '../db/client.ts';
import { LEAD_SUMMARY_FIELDS } from '../leads/leads-console.ts';
import { toCsv } from './csv.ts';

/**
 * Leads for outside systems: a page at a time (newest first) and the same filter as a CSV file.
 * Erased leads keep their row without contact details, as in the console.
 */
export interface LeadQuery {
	status?: LeadStatus;
	since?: string;
}

// The API exports what every list of leads shows (leads-console.ts), never the outbox state.
const LEAD_FIELDS = LEAD_SUMMARY_FIELDS;
const select = Object.fromEntries(LEAD_FIELDS.map((field) => [field, true])) as Record<
	(typeof LEAD_FIELDS)[number],
	true
>;
/** One export holds at most this many leads; narrow it with `since` beyond that. */
export const CSV_EXPORT_LIMIT = 50_000;

function whereOf(query: LeadQuery) {
	return {
		...(query.status ? { status: query.status } : {}),
		...(query.since ? { createdAt: { gte: query.since } } : {})
	};
}

export async function leadsPage(db: Db, query: LeadQuery & { page: number; pageSize: number }) {
	const where = whereOf(query);
	const [total, leads] = await Promise.all([
		db.lead.count({ where }),
		db.lead.findMany({
			where,
			select,
			orderBy: { id: 'desc' },
			skip: (query.page - 1) * query.pageSize,
			take: query.pageSize
		})
	]);
	return { page: query.page, pageSize: query.pageSize, total, leads };
}

export async function leadsCsv(db: Db, query: LeadQuery): Promise<string> {
	const leads = await db.lead.findMany({
		where: whereOf(query),
		select,
		orderBy: { id: 'asc' },
		take: CSV_EXPORT_LIMIT
	});
	return toCsv(
		LEAD_FIELDS,
		leads.map((lead) => LEAD_FIELDS.map((field) => lead[field]))
	);
}
