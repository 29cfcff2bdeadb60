import type { Db, Tx } from '../db/client.ts';
import type { Broadcast } from '../db/generated/client.ts';
import type { BroadcastState } from '../../schemas/broadcast.schema.ts';
import { queueAudience } from './audience.ts';
import { RECIPIENT_REASON } from './recipient-reasons.ts';

/**
 * The broadcasts table. A broadcast moves draft → scheduled → sending → done, may be paused and
 * resumed while scheduled or sending, and cancelled before it is done. Every change is conditional
 * on the state it starts from, so a console click racing the worker has one winner; the refusal
 * answers with the state found.
 */
export interface NewBroadcast {
	eventId: number | null;
	text: string;
	imagePath: string | null;
	buttonText: string | null;
	buttonUrl: string | null;
	createdBy: string;
}

export type StateChange = { won: true; broadcast: Broadcast } | { won: false; found: string | null };

export async function createBroadcast(db: Db | Tx, nowIso: string, input: NewBroadcast): Promise<Broadcast> {
	return db.broadcast.create({ data: { ...input, state: 'draft', createdAt: nowIso, updatedAt: nowIso } });
}

export function findBroadcast(db: Db | Tx, id: number): Promise<Broadcast | null> {
	return db.broadcast.findUnique({ where: { id } });
}

export function listBroadcasts(db: Db | Tx, limit = 50): Promise<Broadcast[]> {
	return db.broadcast.findMany({ orderBy: { id: 'desc' }, take: limit });
}

async function changeState(
	db: Db | Tx,
	id: number,
	from: readonly BroadcastState[],
	data: Partial<Broadcast> & { state: BroadcastState },
	also: { startedAt?: null | { not: null } } = {}
): Promise<StateChange> {
	const { count } = await db.broadcast.updateMany({ where: { id, state: { in: [...from] }, ...also }, data });
	const broadcast = await db.broadcast.findUnique({ where: { id } });
	if (count === 1 && broadcast) return { won: true, broadcast };
	return { won: false, found: broadcast?.state ?? null };
}

/** Send now (sendAt = now) or at a moment; the worker starts it when that moment comes. */
export function scheduleBroadcast(db: Db | Tx, nowIso: string, id: number, sendAtIso: string): Promise<StateChange> {
	return changeState(db, id, ['draft'], { state: 'scheduled', sendAt: sendAtIso, updatedAt: nowIso });
}

export function pauseBroadcast(db: Db | Tx, nowIso: string, id: number): Promise<StateChange> {
	return changeState(db, id, ['scheduled', 'sending'], { state: 'paused', updatedAt: nowIso });
}

/**
 * A paused broadcast goes back to where it was: sending once it had started, else scheduled.
 * Whether it started is part of each update's condition, not read before it: a read could be
 * stale by the update (resumed, started and paused again from another process meanwhile).
 */
export async function resumeBroadcast(db: Db, nowIso: string, id: number): Promise<StateChange> {
	const started = await changeState(
		db,
		id,
		['paused'],
		{ state: 'sending', updatedAt: nowIso },
		{ startedAt: { not: null } }
	);
	if (started.won || started.found !== 'paused') return started;
	return changeState(db, id, ['paused'], { state: 'scheduled', updatedAt: nowIso }, { startedAt: null });
}

/** Cancelled: the worker sends nothing more; rows still queued are recorded as skipped. */
export async function cancelBroadcast(db: Db, nowIso: string, id: number): Promise<StateChange> {
	return db.$transaction(async (tx) => {
		const change = await changeState(tx, id, ['draft', 'scheduled', 'sending', 'paused'], {
			state: 'cancelled',
			updatedAt: nowIso,
			finishedAt: nowIso
		});
		if (change.won) {
			await tx.broadcastRecipient.updateMany({
				where: { broadcastId: id, test: false, state: 'queued' },
				data: { state: 'skipped', error: RECIPIENT_REASON.cancelled, nextAttemptAt: null, updatedAt: nowIso }
			});
		}
		return change;
	});
}

/**
 * Starts every scheduled broadcast whose moment has come: its audience is chosen now (the guests
 * who qualify at this moment) and written as queued outbox rows in the same transaction.
 */
export async function startDueBroadcasts(db: Db, nowIso: string): Promise<number[]> {
	const due = await db.broadcast.findMany({
		where: { state: 'scheduled', sendAt: { lte: nowIso } },
		select: { id: true, eventId: true },
		orderBy: { id: 'asc' }
	});
	const started: number[] = [];
	for (const { id, eventId } of due) {
		const won = await db.$transaction(async (tx) => {
			const { count } = await tx.broadcast.updateMany({
				where: { id, state: 'scheduled' },
				data: { state: 'sending', startedAt: nowIso, updatedAt: nowIso }
			});
			if (count === 0) return false;
			const queued = await queueAudience(tx, id, eventId, nowIso);
			await tx.broadcast.update({ where: { id }, data: { audienceCount: queued } });
			return true;
		});
		if (won) started.push(id);
	}
	return started;
}

/** Sending broadcasts with no queued rows left are done. */
export async function finishDrainedBroadcasts(db: Db, nowIso: string): Promise<number> {
	const { count } = await db.broadcast.updateMany({
		where: { state: 'sending', recipients: { none: { test: false, state: 'queued' } } },
		data: { state: 'done', finishedAt: nowIso, updatedAt: nowIso }
	});
	return count;
}

export async function recordImageFileId(db: Db, id: number, fileId: string): Promise<void> {
	await db.broadcast.updateMany({ where: { id, imageFileId: null }, data: { imageFileId: fileId } });
}

/** Broadcasts finished (or drafts made) before `beforeIso`: the retention clock's candidates. */
export function findExpiredBroadcasts(
	db: Db,
	beforeIso: string,
	limit = 100
): Promise<Pick<Broadcast, 'id' | 'imagePath'>[]> {
	return db.broadcast.findMany({
		where: { OR: [{ finishedAt: { lt: beforeIso } }, { state: 'draft', createdAt: { lt: beforeIso } }] },
		select: { id: true, imagePath: true },
		take: limit
	});
}

/** Deletes broadcasts and, by the foreign key's cascade, their recipient rows. */
export async function deleteBroadcasts(db: Db, ids: number[]): Promise<number> {
	const { count } = await db.broadcast.deleteMany({ where: { id: { in: ids } } });
	return count;
}
