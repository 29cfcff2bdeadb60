import { LEAD_STATUSES, type LeadStatus } from '../../schemas/lead-status.ts';
import type { Db } from '../db/client.ts';
import type { Lead } from '../db/generated/client.ts';
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

export interface LeadRow {
	id: number;
	createdAt: string;
	name: string | null;
	telegram: string | null;
	phone: string | null;
	eventDate: string | null;
	guests: string | null;
	locale: string | null;
	utmSource: string | null;
	status: string;
	statusByName: string | null;
	statusAt: string | null;
	publishedAt: string | null;
	publishAttempts: number;
	publishError: string | null;
	erasedAt: string | null;
	repeats: number;
}

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
	const {
		id,
		createdAt,
		name,
		telegram,
		phone,
		eventDate,
		guests,
		locale,
		utmSource,
		status,
		statusByName,
		statusAt,
		publishedAt,
		publishAttempts,
		publishError,
		erasedAt
	} = lead;
	return {
		id,
		createdAt,
		name,
		telegram,
		phone,
		eventDate,
		guests,
		locale,
		utmSource,
		status,
		statusByName,
		statusAt,
		publishedAt,
		publishAttempts,
		publishError,
		erasedAt,
		repeats
	};
}

export interface LeadDetail extends LeadRow {
	submittedAt: string | null;
	comment: string | null;
	utm: string | null;
	utmMedium: string | null;
	utmCampaign: string | null;
	remindedAt: string | null;
	history: { id: number; status: string; byUserId: string; byName: string | null; at: string }[];
	repeatList: {
		id: number;
		at: string;
		telegram: string | null;
		phone: string | null;
		eventDate: string | null;
		guests: string | null;
		comment: string | null;
		locale: string | null;
		utmSource: string | null;
		notifiedAt: string | null;
		notifyError: string | null;
	}[];
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
		repeatList: lead.repeats.map(
			({ id: rid, at, telegram, phone, eventDate, guests, comment, locale, utmSource, notifiedAt, notifyError }) => ({
				id: rid,
				at,
				telegram,
				phone,
				eventDate,
				guests,
				comment,
				locale,
				utmSource,
				notifiedAt,
				notifyError
			})
		)
	};
}

// The same SQL in SQLite and PostgreSQL (coalesce and sum, not ifnull and total).
const MARKER_SQL = `SELECT
	(SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(max(status_at), '') || ':' || count(published_at) || ':' || count(erased_at) || ':' || coalesce(sum(publish_attempts), 0) FROM leads) || '|' ||
	(SELECT count(*) || ':' || count(notified_at) FROM lead_repeats) || '|' ||
	(SELECT coalesce(max(id), 0) FROM lead_status_history) AS marker`;

/** One change feed over the leads tables per database client (the console's own feed does not watch them). */
export const leadsChangeFeed = markerFeeds(() => MARKER_SQL);
