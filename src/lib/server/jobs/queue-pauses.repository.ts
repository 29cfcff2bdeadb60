import type { Db } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { readQueuePause, type QueuePause } from './queue-pause.ts';

/**
 * The durable record of when the queue stood still (`queue_pauses`), kept in step with the pause
 * the queue reads (readQueuePause) by the worker's deadline pass every few seconds. A pause
 * begins at the time its source recorded (`since`), so a pause set while the worker was down still
 * counts from its start; it ends when the pass first sees it gone, or at its expected end
 * (`until`) when that came first — the quota day ends at midnight Pacific whether or not anyone
 * looked. A change of source (a quota pause turned into an operator's pause) closes one row and
 * opens the next.
 */
export interface PauseInterval {
	startedAt: Date;
	endedAt: Date | null;
}

export async function syncQueuePauses(db: Db, clock: Clock): Promise<QueuePause | null> {
	const pause = await readQueuePause(db, clock);
	const now = clock.now();
	const open = await db.queuePause.findFirst({ where: { endedAt: null }, orderBy: { id: 'desc' } });
	// The same source goes on in the open row, unless that one ended before this began (two
	// per-minute holds with running time between them are two pauses, not one).
	const ended = open?.until && pause && Date.parse(open.until) < Date.parse(pause.since);
	if (open && pause && open.source === pause.source && !ended) {
		if (open.until !== (pause.until ?? null))
			await db.queuePause.update({ where: { id: open.id }, data: { until: pause.until ?? null } });
		return pause;
	}
	if (open) {
		const end = open.until && Date.parse(open.until) < now.getTime() ? open.until : now.toISOString();
		await db.queuePause.updateMany({ where: { id: open.id, endedAt: null }, data: { endedAt: end } });
	}
	// Rows may overlap when one source follows another; pausedMsBetween counts shared time once.
	if (pause)
		await db.queuePause.create({
			data: {
				source: pause.source,
				reason: pause.reason.slice(0, 500),
				startedAt: pause.since,
				until: pause.until ?? null
			}
		});
	return pause;
}

/** Pauses that overlap [from, to], oldest first; an open one is still going. */
export async function listQueuePauses(db: Db, from: Date): Promise<PauseInterval[]> {
	const rows = await db.queuePause.findMany({
		where: { OR: [{ endedAt: null }, { endedAt: { gt: from.toISOString() } }] },
		orderBy: { startedAt: 'asc' }
	});
	return rows.map((row) => ({
		startedAt: new Date(row.startedAt),
		endedAt: row.endedAt ? new Date(row.endedAt) : null
	}));
}

/** Milliseconds of [from, to] the queue was paused; overlapping rows are counted once. */
export function pausedMsBetween(pauses: readonly PauseInterval[], from: Date, to: Date): number {
	let paused = 0;
	let covered = from.getTime();
	for (const pause of pauses) {
		const start = Math.max(pause.startedAt.getTime(), covered);
		const end = Math.min((pause.endedAt ?? to).getTime(), to.getTime());
		if (end <= start) continue;
		paused += end - start;
		covered = end;
	}
	return paused;
}

/** How long a job created at `createdAt` has spent in a running queue by `now`. */
export function runningMsSince(pauses: readonly PauseInterval[], createdAt: Date, now: Date): number {
	return now.getTime() - createdAt.getTime() - pausedMsBetween(pauses, createdAt, now);
}
