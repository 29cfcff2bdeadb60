import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * A guest who blocked the bot: Telegram answers 403 to every message, and retrying only burns
 * the bot's limits. The first 403 marks the guest; notices and broadcasts skip marked guests.
 * The mark goes when the guest writes to the bot again (saveGuestProfile clears it), since
 * Telegram lets them unblock at any time.
 */
export async function markBotBlocked(db: Db | Tx, clock: Clock, telegramUserId: bigint): Promise<void> {
	await db.user.updateMany({ where: { telegramUserId, botBlockedAt: null }, data: { botBlockedAt: clock.now().toISOString() } });
}

export async function isBotBlocked(db: Db | Tx, telegramUserId: bigint): Promise<boolean> {
	const row = await db.user.findUnique({ where: { telegramUserId }, select: { botBlockedAt: true } });
	return row?.botBlockedAt != null;
}
