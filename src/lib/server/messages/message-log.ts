import type { Db, Tx } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import { DAY, type Clock } from '../time/clock.ts';

/**
 * The bot's message history with people in private chats and the daily counters
 * next to it. Both are written in one transaction, so the counters always agree with what was
 * recorded — and they stay when retention deletes the messages, because they name nobody.
 */
export type MessageDirection = 'in' | 'out';

export type MessageKind =
	'text' | 'command' | 'callback' | 'photo' | 'sticker' | 'document' | 'sticker_set_link' | 'edit' | 'other';

export interface BotMessageEntry {
	telegramUserId: bigint;
	direction: MessageDirection;
	kind: MessageKind;
	/** Already cleaned by message-text.ts: an excerpt without tokens, or null. */
	text: string | null;
	messageId: bigint | null;
	/** ISO 8601 UTC, taken when the message passed through the bot. */
	at: string;
}

/** 'YYYY-MM-DD' of an ISO timestamp: counters are kept per UTC day. */
export function utcDayOf(iso: string): string {
	return iso.slice(0, 10);
}

/**
 * Records one message and counts it for its day; a person's first message of the day counts them once.
 * The day's counters are written first: that holds their row (made if missing) until the commit,
 * so two processes recording one person's messages at once (on PostgreSQL) do not both find none
 * earlier that day.
 */
export async function recordBotMessage(db: Db, entry: BotMessageEntry): Promise<void> {
	await db.$transaction(async (tx) => {
		const day = utcDayOf(entry.at);
		const incoming = entry.direction === 'in' ? 1 : 0;
		const outgoing = entry.direction === 'out' ? 1 : 0;
		await tx.messageActivity.upsert({
			where: { day },
			create: { day, incoming, outgoing, guests: 0 },
			update: { incoming: { increment: incoming }, outgoing: { increment: outgoing } }
		});
		const firstToday = !(await hasMessageOnDay(tx, entry.telegramUserId, day));
		await tx.botMessage.create({ data: entry });
		if (firstToday) await tx.messageActivity.update({ where: { day }, data: { guests: { increment: 1 } } });
	});
}

/**
 * Distinct people per day are counted from the messages themselves, so no list of ids is kept
 * beside them. Retention keeps messages for days, never less than one, so today's rows are there
 * to ask; only a person erased by /forget who writes again the same day is counted twice.
 */
async function hasMessageOnDay(tx: Tx, telegramUserId: bigint, day: string): Promise<boolean> {
	const found = await tx.botMessage.findFirst({
		where: { telegramUserId, at: { gte: `${day}T00:00:00.000Z`, lte: `${day}T23:59:59.999Z` } },
		select: { id: true }
	});
	return found !== null;
}

/** Retention by age: messages older than the guest retention period go, counters stay. */
export async function deleteMessagesOlderThan(db: Db, clock: Clock, retentionDays: number): Promise<number> {
	const cutoff = new Date(clock.now().getTime() - retentionDays * DAY).toISOString();
	const { count } = await db.botMessage.deleteMany({ where: { at: { lt: cutoff } } });
	return count;
}

/**
 * Deletes what was written about a guest after their erasure (/forget: the confirmation, and any
 * message the writer had not stored yet). Those rows made the guest look new again that day, so
 * the day's count of people is corrected by one; the message counters stay as they are.
 */
export async function deleteHistoryLeftAfterErasure(db: Db, telegramUserId: bigint, erasedAt: string): Promise<number> {
	return db.$transaction(async (tx) => {
		const day = utcDayOf(erasedAt);
		await lockRows(tx, 'message_activity', 'day', [day]); // as recordBotMessage's counter write does
		const countedAgain = await hasMessageOnDay(tx, telegramUserId, day);
		const { count } = await tx.botMessage.deleteMany({ where: { telegramUserId } });
		if (countedAgain)
			await tx.messageActivity.updateMany({ where: { day, guests: { gt: 1 } }, data: { guests: { decrement: 1 } } });
		return count;
	});
}
