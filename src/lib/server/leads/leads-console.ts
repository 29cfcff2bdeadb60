import { LEAD_STATUSES, type LeadStatus } from '../../schemas/lead-status.ts';
import type { Db } from '../db/client.ts';
import type { Lead, LeadRepeat } from '../db/generated/client.ts';
import { markerFeeds } from '../console/change-feed.ts';

/**
 * What the console's Leads page reads: a filtered table, one lead's card with its history and
 * repeats, and a change marker over the leads tables for live updates. Telegram ids leave as
 * strings (JSON has no bigint).
 */
export interface LeadFilters {
	status?: LeadStatus;
	search?: string;
	/** Only leads of the last N days. */
	days?: number;
}

/**
 * A lead's columns everyone who lists leads sees: the console's table and the API's export
 * (api-v1/leads-api.ts, also its CSV columns, in this order).
 */
export const LEAD_SUMMARY_FIELDS = [
	'id',
	'createdAt',
	'name',
	'telegram',
	'phone',
	'eventDate',
	'guests',
	'locale',
	'utmSource',
	'status',
	'statusByName',
	'statusAt',
	'erasedAt'
] as const satisfies readonly (keyof Lead)[];

/** The console's table row: the summary and the sales-group card's outbox state. */
const LEAD_ROW_FIELDS = [
	...LEAD_SUMMARY_FIELDS,
	'publishedAt',
	'publishAttempts',
	'publishError'
] as const satisfies readonly (keyof Lead)[];

export type LeadRow = Pick<Lead, (typeof LEAD_ROW_FIELDS)[number]> & { repeats: number };

/** A repeat's columns the lead's card lists. */
const REPEAT_FIELDS = [
	'id',
	'at',
	'telegram',
	'phone',
	'eventDate',
	'guests',
	'comment',
	'locale',
	'utmSource',
	'notifiedAt',
	'notifyError'
] as const satisfies readonly (keyof LeadRepeat)[];

const LIST_LIMIT = 200;

export async function listLeads(
	db: Db,
	filters: LeadFilters,
	now: Date
): Promise<{ rows: LeadRow[]; counts: Record<string, number>; truncated: boolean }> {
	const search = filters.search?.trim();
	const where = {
		...(filters.status ? { status: filters.status } : {}),
		...(filters.days ? { createdAt: { gte: new Date(now.getTime() - filters.days * 86_400_000).toISOString() } } : {}),
		...(search ? { OR: searchConditions(search) } : {})
	};
	const [rows, grouped] = await Promise.all([
		db.lead.findMany({
			where,
			orderBy: { id: 'desc' },
			take: LIST_LIMIT + 1,
			include: { _count: { select: { repeats: true } } }
		}),
		db.lead.groupBy({ by: ['status'], _count: { _all: true } })
	]);
	const counts = Object.fromEntries(
		LEAD_STATUSES.map((s) => [s, grouped.find((g) => g.status === s)?._count._all ?? 0])
	);
	return {
		rows: rows.slice(0, LIST_LIMIT).map((lead) => toRow(lead, lead._count.repeats)),
		counts,
		truncated: rows.length > LIST_LIMIT
	};
}

function searchConditions(search: string) {
	// "#12" or "stickers_12" means the lead number; anything else searches the contact fields.
	const id = /^(?:#|#?stickers_)(\d{1,9})$/.exec(search)?.[1];
	if (id) return [{ id: Number(id) }];
	const digits = search.replace(/[^\d]/g, '');
	return [
		{ name: { contains: search } },
		{ telegram: { contains: search.replace(/^@/, '') } },
		...(digits.length >= 3 ? [{ phone: { contains: digits } }] : []),
		{ comment: { contains: search } }
	];
}

function toRow(lead: Lead, repeats: number): LeadRow {
	return { ...pickFields(lead, LEAD_ROW_FIELDS), repeats };
}

/** A copy of `row` with only `fields`: the row's other columns (ids of chats, hashes) stay behind. */
function pickFields<Row, Field extends keyof Row>(row: Row, fields: readonly Field[]): Pick<Row, Field> {
	return Object.fromEntries(fields.map((field) => [field, row[field]])) as Pick<Row, Field>;
}

export interface LeadDetail extends LeadRow {
	submittedAt: string | null;
	comment: string | null;
	utm: string | null;
	utmMedium: string | null;
	utmCampaign: string | null;
	remindedAt: string | null;
	history: { id: number; status: string; byUserId: string; byName: string | null; at: string }[];
	repeatList: Pick<LeadRepeat, (typeof REPEAT_FIELDS)[number]>[];
}

export async function readLeadDetail(db: Db, id: number): Promise<LeadDetail | null> {
	const lead = await db.lead.findUnique({
		where: { id },
		include: { history: { orderBy: { id: 'asc' } }, repeats: { orderBy: { id: 'asc' } } }
	});
	if (!lead) return null;
	return {
		...toRow(lead, lead.repeats.length),
		submittedAt: lead.submittedAt,
		comment: lead.comment,
		utm: lead.utm,
		utmMedium: lead.utmMedium,
		utmCampaign: lead.utmCampaign,
		remindedAt: lead.remindedAt,
		history: lead.history.map((h) => ({
			id: h.id,
			status: h.status,
			byUserId: String(h.byUserId),
			byName: h.byName,
			at: h.at
		})),
		repeatList: lead.repeats.map((repeat) => pickFields(repeat, REPEAT_FIELDS))
	};
}

// The same SQL in SQLite and PostgreSQL (coalesce and sum, not ifnull and total).
const MARKER_SQL = `SELECT
	(SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(max(status_at), '') || ':' || count(published_at) || ':' || count(erased_at) || ':' || coalesce(sum(publish_attempts), 0) FROM leads) || '|' ||
	(SELECT count(*) || ':' || count(notified_at) FROM lead_repeats) || '|' ||
	(SELECT coalesce(max(id), 0) FROM lead_status_history) AS marker`;

/** One change feed over the leads tables per database client (the console's own feed does not watch them). */
export const leadsChangeFeed = markerFeeds(() => MARKER_SQL);
