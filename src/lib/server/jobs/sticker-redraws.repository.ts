import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';

/**
 * The worker's side of sticker_redraws: claim the oldest queued request with a conditional update
 * (so a second claimer loses cleanly), finish it, and at start-up put back any request a stopped
 * worker left `working` (one worker per DATA_DIR holds the instance lock, so none is really running).
 */
export interface RedrawRequest {
	id: number;
	jobId: number;
	stickerNumber: number;
}

export async function claimStickerRedraw(db: Db, clock: Clock): Promise<RedrawRequest | null> {
	const next = await db.stickerRedraw.findFirst({ where: { status: 'queued' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
	if (!next) return null;
	const now = clock.now().toISOString();
	const { count } = await db.stickerRedraw.updateMany({ where: { id: next.id, status: 'queued' }, data: { status: 'working', claimedAt: now, updatedAt: now } });
	return count === 1 ? { id: next.id, jobId: next.jobId, stickerNumber: next.stickerNumber } : null;
}

export async function finishStickerRedraw(db: Db, clock: Clock, id: number, outcome: { ok: true } | { ok: false; error: string }): Promise<void> {
	await db.stickerRedraw.updateMany({
		where: { id, status: 'working' },
		data: { status: outcome.ok ? 'done' : 'failed', error: outcome.ok ? null : outcome.error.slice(0, 500), updatedAt: clock.now().toISOString() }
	});
}

export async function requeueUnfinishedRedraws(db: Db, clock: Clock): Promise<number> {
	const { count } = await db.stickerRedraw.updateMany({ where: { status: 'working' }, data: { status: 'queued', claimedAt: null, updatedAt: clock.now().toISOString() } });
	return count;
}
