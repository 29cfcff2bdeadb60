import type { Update } from 'grammy/types';
import type { Db } from '../db/client.ts';
import { DAY, type Clock } from '../time/clock.ts';

/**
 * The bot's inbox (bot_updates): a poll's updates are written here before the next getUpdates
 * confirms them to Telegram, so the worker can confirm a batch at once and handle its updates
 * side by side (one chat's in order) without a crash losing any: a row not yet handled is handled
 * by the next poller of the bot — this worker restarted, or another that took the updates lease.
 * An update Telegram delivers again (not yet confirmed when the worker died) finds its row and is
 * not handled twice. Keys are per bot, like processed_updates.
 */
export interface InboxUpdate {
	update: Update;
	/** What orders updates: one chat's are handled one after another, in update_id order. */
	chatKey: string;
}

/** The chat an update belongs to; an update with none (never among the allowed kinds) is its own. */
export function chatKeyOf(update: Update): string {
	const chatId =
		update.message?.chat.id ??
		update.callback_query?.message?.chat.id ??
		update.callback_query?.from.id ??
		update.my_chat_member?.chat.id;
	return chatId === undefined ? `update:${update.update_id}` : `chat:${chatId}`;
}

/**
 * Records a poll's updates in one transaction; returns those recorded now (an update already in
 * the inbox — delivered again — is left out: it was or is being handled). Raw SQL for "insert unless
 * present": ON CONFLICT DO NOTHING reads the same in SQLite and PostgreSQL.
 */
export async function recordUpdates(db: Db, clock: Clock, botId: number, updates: Update[]): Promise<InboxUpdate[]> {
	const at = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		const fresh: InboxUpdate[] = [];
		for (const update of updates) {
			const chatKey = chatKeyOf(update);
			const inserted = await tx.$executeRaw`INSERT INTO bot_updates (bot_id, update_id, chat_key, payload, received_at)
				VALUES (${BigInt(botId)}, ${BigInt(update.update_id)}, ${chatKey}, ${JSON.stringify(update)}, ${at})
				ON CONFLICT DO NOTHING`;
			if (inserted > 0) fresh.push({ update, chatKey });
		}
		return fresh;
	});
}

/** What the bot still has to handle (left by a stopped or killed poller), oldest first. */
export async function waitingUpdates(db: Db, botId: number): Promise<InboxUpdate[]> {
	const rows = await db.botUpdate.findMany({
		where: { botId: BigInt(botId), handledAt: null },
		orderBy: { updateId: 'asc' },
		select: { payload: true, chatKey: true }
	});
	return rows.map((row) => ({ update: JSON.parse(row.payload) as Update, chatKey: row.chatKey }));
}

/**
 * The update's handler ended (answered or failed for good): only its id is kept, to know it again
 * if Telegram delivers it once more. The payload (the guest's name, words, chat) goes now.
 */
export async function markInboxUpdateHandled(db: Db, clock: Clock, botId: number, updateId: number): Promise<void> {
	await db.botUpdate.updateMany({
		where: { botId: BigInt(botId), updateId: BigInt(updateId), handledAt: null },
		data: { handledAt: clock.now().toISOString(), payload: '', chatKey: '' }
	});
}

/**
 * The offset a poll of this bot starts from: past every update recorded, so the first getUpdates
 * confirms what a killed poller recorded but had not confirmed yet. Undefined when none is
 * recorded: Telegram's own offset (everything not confirmed) then.
 */
export async function nextPollOffset(db: Db, botId: number): Promise<number | undefined> {
	const last = await db.botUpdate.aggregate({ where: { botId: BigInt(botId) }, _max: { updateId: true } });
	const max = last._max.updateId;
	return max === null ? undefined : Number(max) + 1;
}

/** Handled rows older than `keepMs` (Telegram keeps an unconfirmed update a day at most). */
export async function forgetHandledUpdates(db: Db, clock: Clock, keepMs = DAY): Promise<number> {
	const before = new Date(clock.now().getTime() - keepMs).toISOString();
	const { count } = await db.botUpdate.deleteMany({ where: { handledAt: { lt: before } } });
	return count;
}
