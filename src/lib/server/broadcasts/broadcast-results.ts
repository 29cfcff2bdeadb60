import type { Db } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { RecipientState } from '../../schemas/broadcast.schema.ts';
import { guestLabel } from '../console/guest-label.ts';
import { describeRecipient, type RecipientOutcome } from './recipient-outcome.ts';

/**
 * The per-recipient results of one broadcast (docs/console.md "Broadcasts", Results): who got it,
 * who is waiting, who was skipped or not reached and why — a page at a time, in the order the rows
 * were queued. Keyset pages over (broadcast_id, state, id) (idx_broadcast_recipients_results): a
 * page costs the same on the first and the last of thousands of guests. Test copies are left out
 * (the page shows the test's state on its own).
 */
export interface RecipientResult extends RecipientOutcome {
	id: number;
	telegramUserId: string;
	/** As the console names a guest elsewhere (guest-label.ts). */
	guest: string;
	state: RecipientState;
}

export interface RecipientPage {
	rows: RecipientResult[];
	/** Pass as `after` for the next page; null on the last. */
	nextAfter: number | null;
	/** Pass as `before` for the previous page; null on the first. */
	prevBefore: number | null;
}

export interface RecipientPageQuery {
	broadcastId: number;
	state: RecipientState | null;
	after?: number | null;
	before?: number | null;
	limit: number;
}

export const RESULTS_PAGE_SIZE = 50;

export async function readRecipientPage(db: Db, query: RecipientPageQuery): Promise<RecipientPage> {
	const backwards = query.before != null;
	const where: Prisma.BroadcastRecipientWhereInput = {
		broadcastId: query.broadcastId,
		test: false,
		...(query.state ? { state: query.state } : {}),
		...(backwards ? { id: { lt: query.before! } } : query.after != null ? { id: { gt: query.after } } : {})
	};
	const found = await db.broadcastRecipient.findMany({
		where,
		orderBy: { id: backwards ? 'desc' : 'asc' },
		take: query.limit + 1
	});
	const more = found.length > query.limit;
	const rows = found.slice(0, query.limit);
	if (backwards) rows.reverse();
	const users = await db.user.findMany({
		where: { telegramUserId: { in: rows.map((r) => r.telegramUserId) } },
		select: { telegramUserId: true, firstName: true, lastName: true, username: true }
	});
	const byId = new Map(users.map((u) => [u.telegramUserId, u]));
	const first = rows[0]?.id ?? null;
	const last = rows.at(-1)?.id ?? null;
	return {
		rows: rows.map((r) => ({
			id: r.id,
			telegramUserId: r.telegramUserId.toString(),
			guest: guestLabel(byId.get(r.telegramUserId), r.telegramUserId),
			state: r.state as RecipientState,
			...describeRecipient(r)
		})),
		// Going back, the page we came from is next; going on, a page before exists once we have moved.
		nextAfter: backwards || more ? last : null,
		prevBefore: backwards ? (more ? first : null) : query.after != null ? (first ?? query.after + 1) : null
	};
}
