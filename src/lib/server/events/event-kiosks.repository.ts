import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db, Tx } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import type { Clock } from '../time/clock.ts';

/**
 * `event_kiosks`: which kiosks an event uses. A kiosk may sit in several draft or ended events but
 * in at most one live event: assigning (here) and starting (events.repository) both check it
 * after locking the event's row, then its kiosks' rows (always in that order, so they never
 * deadlock), so two operators cannot both win — on SQLite BEGIN IMMEDIATE already serialises them.
 */
export interface KioskChoice {
	kioskId: number;
	name: string;
	assigned: boolean;
	/** The other live event this kiosk works for, if any (it cannot be assigned here while that lasts). */
	liveElsewhere: string | null;
}

export async function listKioskChoices(db: Db | Tx, eventId: number): Promise<KioskChoice[]> {
	const kiosks = await db.kiosk.findMany({
		where: { revokedAt: null },
		orderBy: { name: 'asc' },
		select: { id: true, name: true }
	});
	const links = await db.eventKiosk.findMany({ where: { kioskId: { in: kiosks.map((k) => k.id) } } });
	const live = await db.event.findMany({
		where: { state: 'live', id: { not: eventId } },
		select: { id: true, name: true }
	});
	const liveName = new Map(live.map((e) => [e.id, e.name]));
	return kiosks.map((kiosk) => {
		const mine = links.filter((l) => l.kioskId === kiosk.id);
		const other = mine.find((l) => liveName.has(l.eventId));
		return {
			kioskId: kiosk.id,
			name: kiosk.name,
			assigned: mine.some((l) => l.eventId === eventId),
			liveElsewhere: other ? liveName.get(other.eventId)! : null
		};
	});
}

/** Locks the rows of the event's kiosks (as an assignment of them does) for the rest of the transaction. */
export async function lockEventKiosks(tx: Tx, eventId: number): Promise<void> {
	const links = await tx.eventKiosk.findMany({ where: { eventId }, select: { kioskId: true } });
	await lockRows(
		tx,
		'kiosks',
		'id',
		links.map((l) => l.kioskId)
	);
}

/** This event's kiosks that another live event also uses (none may, for this one to be live). */
export async function kiosksLiveElsewhere(
	tx: Db | Tx,
	eventId: number,
	kioskIds?: number[]
): Promise<{ kioskName: string; eventName: string }[]> {
	const ids =
		kioskIds ?? (await tx.eventKiosk.findMany({ where: { eventId }, select: { kioskId: true } })).map((l) => l.kioskId);
	if (ids.length === 0) return [];
	const others = await tx.eventKiosk.findMany({ where: { kioskId: { in: ids }, eventId: { not: eventId } } });
	if (others.length === 0) return [];
	const live = await tx.event.findMany({
		where: { id: { in: others.map((o) => o.eventId) }, state: 'live' },
		select: { id: true, name: true }
	});
	const kiosks = await tx.kiosk.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
	return others
		.filter((o) => live.some((e) => e.id === o.eventId))
		.map((o) => ({
			kioskName: kiosks.find((k) => k.id === o.kioskId)?.name ?? `#${o.kioskId}`,
			eventName: live.find((e) => e.id === o.eventId)!.name
		}));
}

/** Sets the event's kiosks to exactly these. A kiosk of another live event is refused while this event is live or about to be. */
export function assignKiosks(
	db: Db,
	clock: Clock,
	actor: Actor,
	eventId: number,
	kioskIds: number[]
): Promise<number[]> {
	return db.$transaction(async (tx) => {
		// Locked before its kiosks: a start of this event reads its kiosks after taking the same lock.
		await lockRows(tx, 'events', 'id', [eventId]);
		const event = await tx.event.findUnique({ where: { id: eventId }, select: { state: true } });
		if (!event) throw new DomainError({ code: 'EventNotFound' });
		if (event.state === 'ended') throw new DomainError({ code: 'EventEnded', kept: 'kiosks' });
		const unique = [...new Set(kioskIds)];
		// Two assignments of the same kiosk at once must not both find it free.
		await lockRows(tx, 'kiosks', 'id', unique);
		const known = await tx.kiosk.count({ where: { id: { in: unique } } });
		if (known !== unique.length) throw new DomainError({ code: 'KioskNotFound' });
		const taken = await kiosksLiveElsewhere(tx, eventId, unique);
		if (taken.length > 0)
			throw new DomainError({
				code: 'KioskLiveElsewhere',
				kiosks: [taken[0]!.kioskName],
				liveEvent: taken[0]!.eventName,
				starting: false
			});
		const now = clock.now().toISOString();
		await tx.eventKiosk.deleteMany({ where: { eventId, kioskId: { notIn: unique } } });
		for (const kioskId of unique) {
			await tx.eventKiosk.upsert({
				where: { eventId_kioskId: { eventId, kioskId } },
				create: { eventId, kioskId, assignedAt: now },
				update: {}
			});
		}
		await recordAudit(tx, clock, actor, { action: 'event_kiosks', details: { eventId, kioskIds: unique } });
		return unique;
	});
}
