import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { skipQueuedForGuest } from './broadcast-recipients.repository.ts';
import { recordOwnChoice } from './news-opt-ins.repository.ts';

export type OptOutVia = 'broadcast_button' | 'stop';

/**
 * A guest asks for no more broadcasts (the button under one, or /stop): their news_opt_ins row
 * becomes `out` with how and when, and every row of theirs still queued is skipped in the same
 * transaction, so not even a broadcast being sent right now reaches them again. A /stop before
 * any question also counts: they are not asked after a later pack. Saying it twice changes nothing.
 */
export async function optOutOfBroadcasts(
	db: Db,
	clock: Clock,
	telegramUserId: bigint,
	via: OptOutVia,
	locale: string,
	broadcastId: number | null = null
): Promise<{ already: boolean }> {
	const nowIso = clock.now().toISOString();
	return db.$transaction(async (tx) => {
		// No wording is recorded for a no: nothing needs proving about a guest who asked for less.
		const changed = await recordOwnChoice(
			tx,
			telegramUserId,
			{ state: 'out', via, wordingVersion: null, locale, broadcastId },
			nowIso
		);
		await skipQueuedForGuest(tx, nowIso, telegramUserId);
		return { already: !changed };
	});
}
