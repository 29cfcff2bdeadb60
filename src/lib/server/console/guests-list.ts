import type { Db } from '../db/client.ts';
import { packLink } from '../jobs/delivery/pack-name.ts';
import { guestLabel } from './guest-label.ts';
import { jobStatusSchema, type JobStatus } from '../../schemas/job-status.ts';

/** The Guests page: users LEFT JOIN jobs, searchable by Telegram id, name or @username. */
export interface GuestJob {
	jobId: number;
	status: JobStatus;
	createdAt: string;
	packLink: string | null;
}

/** Their answer about news (news_opt_ins), as an operator may need to show it: what, when, how, under which words. */
export interface GuestNews {
	state: 'asked' | 'in' | 'out';
	via: string | null;
	wordingVersion: string | null;
	locale: string | null;
	askedAt: string | null;
	answeredAt: string | null;
}

export interface GuestRow {
	telegramUserId: string;
	label: string;
	firstName: string | null;
	lastName: string | null;
	username: string | null;
	consentedAt: string | null;
	createdAt: string;
	extraPacksAllowed: number;
	packLink: string | null;
	packCompletedAt: string | null;
	/** null: never asked about news, and no /news or /stop of theirs. */
	news: GuestNews | null;
	jobs: GuestJob[];
}

export interface GuestList {
	search: string;
	rows: GuestRow[];
	total: number;
	truncated: boolean;
}

const PAGE = 100;

export async function listGuests(db: Db, rawSearch: string): Promise<GuestList> {
	const search = rawSearch.trim();
	const where = guestWhere(search);
	const [users, total] = await Promise.all([
		db.user.findMany({ where, orderBy: { createdAt: 'desc' }, take: PAGE + 1 }),
		db.user.count({ where })
	]);
	const page = users.slice(0, PAGE);
	const ids = page.map((u) => u.telegramUserId);
	const [jobs, news] = await Promise.all([
		db.job.findMany({
			where: { telegramUserId: { in: ids } },
			orderBy: { jobId: 'desc' },
			select: { jobId: true, status: true, createdAt: true, packName: true, telegramUserId: true }
		}),
		db.newsOptIn.findMany({ where: { telegramUserId: { in: ids } } })
	]);
	const newsOf = new Map(news.map((n) => [n.telegramUserId, n]));
	const rows = page.map((user) => ({
		telegramUserId: user.telegramUserId.toString(),
		label: guestLabel(user, user.telegramUserId),
		firstName: user.firstName,
		lastName: user.lastName,
		username: user.username,
		consentedAt: user.consentedAt,
		createdAt: user.createdAt,
		extraPacksAllowed: user.extraPacksAllowed,
		packLink: user.packLink ?? (user.packName ? packLink(user.packName) : null),
		packCompletedAt: user.packCompletedAt,
		news: readNews(newsOf.get(user.telegramUserId)),
		jobs: jobs
			.filter((job) => job.telegramUserId === user.telegramUserId)
			.map((job) => ({
				jobId: job.jobId,
				status: jobStatusSchema.parse(job.status),
				createdAt: job.createdAt,
				packLink: job.packName ? packLink(job.packName) : null
			}))
	}));
	return { search, rows, total, truncated: users.length > PAGE };
}

function readNews(
	row:
		| {
				state: string;
				via: string | null;
				wordingVersion: string | null;
				locale: string | null;
				askedAt: string | null;
				answeredAt: string | null;
		  }
		| undefined
): GuestNews | null {
	if (!row) return null;
	const state = row.state === 'in' || row.state === 'out' ? row.state : 'asked';
	return {
		state,
		via: row.via,
		wordingVersion: row.wordingVersion,
		locale: row.locale,
		askedAt: row.askedAt,
		answeredAt: row.answeredAt
	};
}

/** Digits match the id exactly (or a name containing them); "@x" matches usernames; words match names. */
function guestWhere(search: string) {
	if (search === '') return {};
	if (search.startsWith('@')) return { username: { contains: search.slice(1) } };
	const text = [
		{ firstName: { contains: search } },
		{ lastName: { contains: search } },
		{ username: { contains: search } }
	];
	if (/^\d{1,20}$/.test(search)) return { OR: [{ telegramUserId: BigInt(search) }, ...text] };
	const words = search.split(/\s+/).filter(Boolean);
	if (words.length > 1)
		return {
			AND: words.map((word) => ({ OR: [{ firstName: { contains: word } }, { lastName: { contains: word } }] }))
		};
	return { OR: text };
}
