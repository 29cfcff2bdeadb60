import type { Db } from '../db/client.ts';
import type { FileStore } from '../files/file-store.ts';
import { DAY, type Clock } from '../time/clock.ts';
import { removeBroadcastImage } from './broadcast-image.ts';
import { deleteBroadcasts, findExpiredBroadcasts } from './broadcasts.repository.ts';

/**
 * The retention clock of broadcasts: a broadcast, its per-recipient rows and its picture go this
 * long after it finished (done or cancelled), or after it was made when it stayed a draft. A
 * guest's own rows go sooner, with the guest (/forget, GUEST_RETENTION_DAYS).
 */
export const BROADCAST_RETENTION_DAYS = 180;

export async function eraseExpiredBroadcasts(db: Db, clock: Clock, files: FileStore): Promise<number> {
	const before = new Date(clock.now().getTime() - BROADCAST_RETENTION_DAYS * DAY).toISOString();
	const expired = await findExpiredBroadcasts(db, before);
	if (expired.length === 0) return 0;
	const count = await deleteBroadcasts(
		db,
		expired.map((b) => b.id)
	);
	for (const broadcast of expired) await removeBroadcastImage(files, broadcast.imagePath);
	return count;
}
