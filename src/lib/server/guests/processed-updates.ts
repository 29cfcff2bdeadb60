import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { DAY } from '../time/clock.ts';

/**
 * The same Telegram update delivered twice has one effect. The state machine already makes every
 * guest step idempotent; this ledger also keeps a replayed update from producing a second reply.
 * An update is recorded once its handling is over (its reply sent), not when it starts: a worker
 * killed halfway leaves it unrecorded, and when it comes again (the bot's inbox, bot_updates, hands
 * what was not marked handled to this worker restarted or to the next holder of the updates lease)
 * it is handled then. Recorded first, the
 * guest would be left without the reply for good. The price is a rare second reply for a worker
 * killed between its reply and the record; the state machine makes that reply the same one.
 * Update ids are counted per bot: the key is the bot's id and the update's (a token replaced on the
 * console by another bot's starts a new count that must not match the old bot's ids).
 */
export async function isUpdateHandled(db: Db, botId: number, updateId: number): Promise<boolean> {
	const key = { botId: BigInt(botId), updateId: BigInt(updateId) };
	return (await db.processedUpdate.findUnique({ where: { botId_updateId: key }, select: { updateId: true } })) !== null;
}

/** Raw SQL because Prisma has no "insert unless present"; ON CONFLICT DO NOTHING is the same in SQLite and PostgreSQL. */
export async function markUpdateHandled(db: Db, clock: Clock, botId: number, updateId: number): Promise<void> {
	await db.$executeRaw`INSERT INTO processed_updates (bot_id, update_id, handled_at) VALUES (${BigInt(botId)}, ${BigInt(updateId)}, ${clock.now().toISOString()}) ON CONFLICT DO NOTHING`;
}

/** Telegram redelivers within hours at most; a day of memory is plenty. */
export async function forgetOldUpdates(db: Db, clock: Clock, keepMs = DAY): Promise<number> {
	const before = new Date(clock.now().getTime() - keepMs).toISOString();
	const { count } = await db.processedUpdate.deleteMany({ where: { handledAt: { lt: before } } });
	return count;
}
