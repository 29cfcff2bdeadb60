import type { Db } from '../db/client.ts';

/**
 * An operator's own Telegram user id, kept on their account for test sends of a broadcast. The
 * bot can write to it only once that person has started the bot (Telegram's rule).
 */
export async function setOperatorTelegramId(db: Db, operatorId: number, telegramId: bigint | null): Promise<void> {
	await db.operator.update({ where: { id: operatorId }, data: { telegramId } });
}

export async function readOperatorTelegramId(db: Db, operatorId: number): Promise<bigint | null> {
	const row = await db.operator.findUnique({ where: { id: operatorId }, select: { telegramId: true } });
	return row?.telegramId ?? null;
}
