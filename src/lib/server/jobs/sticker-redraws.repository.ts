import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { liveWorkers } from '../workers/worker-registry.ts';

/**
 * The worker's side of sticker_redraws: claim the oldest queued request with a conditional update
 * (so a second claimer loses cleanly) and record which worker launch has it, finish it, and put
 * back the requests a launch that is no longer alive left `working` — never a live worker's, which
 * may be drawing on another host.
 */
export interface RedrawRequest {
	id: number;
	jobId: number;
	stickerNumber: number;
}

export async function claimStickerRedraw(db: Db, clock: Clock, workerId: string): Promise<RedrawRequest | null> {
	const next = await db.stickerRedraw.findFirst({
		where: { status: 'queued' },
		orderBy: [{ createdAt: 'asc' }, { id: 'asc' }]
	});
	if (!next) return null;
	const now = clock.now().toISOString();
	const { count } = await db.stickerRedraw.updateMany({
		where: { id: next.id, status: 'queued' },
		data: { status: 'working', claimedAt: now, claimedBy: workerId, updatedAt: now }
	});
	return count === 1 ? { id: next.id, jobId: next.jobId, stickerNumber: next.stickerNumber } : null;
}

export async function finishStickerRedraw(
	db: Db,
	clock: Clock,
	id: number,
	outcome: { ok: true } | { ok: false; error: string }
): Promise<void> {
	await db.stickerRedraw.updateMany({
		where: { id, status: 'working' },
		data: {
			status: outcome.ok ? 'done' : 'failed',
			error: outcome.ok ? null : outcome.error.slice(0, 500),
			updatedAt: clock.now().toISOString()
		}
	});
}

/**
 * `self` is the calling worker's own launch: its claims are in hand even before its first heartbeat.
 * Runs every pass, so the registry is read only when some other launch has a redraw `working`.
 */
export async function requeueUnfinishedRedraws(db: Db, clock: Clock, self: string): Promise<number> {
	const othersWorking = await db.stickerRedraw.count({
		where: { status: 'working', OR: [{ claimedBy: null }, { claimedBy: { not: self } }] }
	});
	if (othersWorking === 0) return 0;
	const alive = [self, ...(await liveWorkers(db, clock)).map((w) => w.id)];
	const { count } = await db.stickerRedraw.updateMany({
		where: { status: 'working', OR: [{ claimedBy: null }, { claimedBy: { notIn: alive } }] },
		data: { status: 'queued', claimedAt: null, claimedBy: null, updatedAt: clock.now().toISOString() }
	});
	return count;
}
