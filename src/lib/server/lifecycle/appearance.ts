import type { Db } from '../db/client.ts';
import { clearAppearanceCards } from '../jobs/job.repository.ts';
import { MINUTE, type Clock } from '../time/clock.ts';

/** An active job older than this has its appearance card dropped by the hourly clean-up. */
export const APPEARANCE_MAX_AGE_MS = 15 * MINUTE;

/**
 * The appearance card (a description of the guest's face) is normally cleared when the job ends;
 * this catches the ones that were missed: every finished job, and any active job queued more than
 * 15 minutes ago. ISO text of one format compares in time order, so a string bound is exact here.
 */
export async function clearStaleAppearance(db: Db, clock: Clock): Promise<number> {
	const olderThan = new Date(clock.now().getTime() - APPEARANCE_MAX_AGE_MS).toISOString();
	return clearAppearanceCards(db, olderThan);
}
