import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * A guest who blocked the bot: Telegram answers 403 to every message, and retrying only burns
 * the bot's limits. The first 403 marks the guest (`guest_bot_blocks`); notices and broadcasts
 * skip marked guests. The mark goes when the guest writes to the bot again (saveGuestProfile
 * clears it), since Telegram lets them unblock at any time, and with the guest's other rows.
 */
export async function markBotBlocked(db: Db | Tx, clock: Clock, telegramUserId: bigint): Promise<void> {
	// createMany skips an existing row, so the first 403's moment is kept.
	await db.guestBotBlock
		.createMany({ data: [{ telegramUserId, blockedAt: clock.now().toISOString() }] })
		.catch(() => undefined);
}

export async function isBotBlocked(db: Db | Tx, telegramUserId: bigint): Promise<boolean> {
	return (await db.guestBotBlock.count({ where: { telegramUserId } })) > 0;
}

export async function clearBotBlocked(db: Db | Tx, telegramUserId: bigint): Promise<void> {
	await db.guestBotBlock.deleteMany({ where: { telegramUserId } });
}
