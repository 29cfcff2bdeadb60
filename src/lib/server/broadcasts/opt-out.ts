import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { skipQueuedForGuest } from './broadcast-recipients.repository.ts';

export type OptOutVia = 'button' | 'stop';

/**
 * A guest asks for no more broadcasts (the button under one, or /stop): recorded once with how
 * and when, and every row of theirs still queued is skipped in the same transaction, so not even
 * a broadcast being sent right now reaches them again. Pressing twice changes nothing.
 */
export async function optOutOfBroadcasts(db: Db, clock: Clock, telegramUserId: bigint, via: OptOutVia, broadcastId: number | null = null): Promise<{ already: boolean }> {
	const nowIso = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		const existing = await tx.broadcastOptOut.findUnique({ where: { telegramUserId } });
		if (!existing) await tx.broadcastOptOut.create({ data: { telegramUserId, via, broadcastId, optedOutAt: nowIso } });
		await skipQueuedForGuest(tx, nowIso, telegramUserId);
		return { already: existing !== null };
	});
}
