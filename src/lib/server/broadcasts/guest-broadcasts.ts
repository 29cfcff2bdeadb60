import type { Db } from '../db/client.ts';
import { describeRecipient } from './recipient-outcome.ts';

/**
 * The broadcasts one person was sent or skipped, for their message history in the console
 * (messages/message-views.ts puts them in time order with the chat). The broadcast outbox sends
 * through its own client, which the bot's message history does not record, so these rows are the
 * only trace of a broadcast in a guest's history. Test copies are included and marked: a test goes
 * to an operator's own chat.
 */
export interface GuestBroadcastLine {
	recipientId: number;
	broadcastId: number;
	test: boolean;
	/** Sent, Waiting, Skipped, Blocked the bot, Failed. */
	label: string;
	/** What happened, in the operator's words (recipient-outcome.ts). */
	words: string;
	/** The broadcast's text without its tags, cut short. */
	excerpt: string;
	/** When it was sent, or when its row last changed (skipped, given up, queued). */
	at: string;
}

const EXCERPT_LENGTH = 200;

export async function readGuestBroadcasts(
	db: Db,
	telegramUserId: bigint,
	limit: number
): Promise<GuestBroadcastLine[]> {
	const rows = await db.broadcastRecipient.findMany({
		where: { telegramUserId },
		include: { broadcast: { select: { text: true } } },
		orderBy: { id: 'desc' },
		take: limit
	});
	return rows.map((r) => {
		const outcome = describeRecipient(r);
		return {
			recipientId: r.id,
			broadcastId: r.broadcastId,
			test: r.test,
			label: outcome.label,
			words: outcome.words,
			excerpt: r.broadcast.text.replace(/<[^>]*>/g, '').slice(0, EXCERPT_LENGTH),
			at: r.sentAt ?? r.updatedAt
		};
	});
}
