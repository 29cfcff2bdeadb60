import type { Actor } from '../audit/audit-log.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db, Tx } from '../db/client.ts';
import { lockRows } from '../db/dialect/row-locks.ts';
import type { Clock } from '../time/clock.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import { eventCaptionsSchema, type EventCaptions, type EventFields, type EventState } from '../../schemas/event.ts';
import { kiosksLiveElsewhere, lockEventKiosks } from './event-kiosks.repository.ts';

/**
 * `events`: the one owner of event rows. Every change is audited in the same transaction. The
 * default event (id 1, made by the migration) is where kiosks without a live event send guests,
 * so an install that never opens the Events page behaves as before. Every change of an event, its
 * catalogue or its kiosks first locks the event's row (findEventForUpdate): on PostgreSQL two web
 * processes would otherwise both read the state they change.
 */
export const DEFAULT_EVENT_ID = 1;

export interface EventRow {
	id: number;
	name: string;
	startsOn: string | null;
	endsOn: string | null;
	state: EventState;
	titleTemplate: string;
	captions: EventCaptions | null;
	animatedStickers: number;
	catalogueVersion: number | null;
	/** The kiosk's colours for this event (#rrggbb), null = the kiosk's own. */
	brandPrimary: string | null;
	brandAccent: string | null;
	createdAt: string;
	updatedAt: string;
}

type Stored = {
	id: number;
	name: string;
	startsOn: string | null;
	endsOn: string | null;
	state: string;
	titleTemplate: string;
	captionsJson: string | null;
	animatedStickers: number;
	catalogueVersion: number | null;
	brandPrimary: string | null;
	brandAccent: string | null;
	createdAt: string;
	updatedAt: string;
};

function toEvent(row: Stored): EventRow {
	const { captionsJson, ...rest } = row;
	return {
		...rest,
		state: row.state as EventState,
		captions: captionsJson === null ? null : eventCaptionsSchema.parse(JSON.parse(captionsJson))
	};
}

export async function listEvents(db: Db | Tx): Promise<EventRow[]> {
	return (await db.event.findMany({ orderBy: [{ state: 'asc' }, { id: 'desc' }] })).map(toEvent);
}

export async function findEvent(db: Db | Tx, id: number): Promise<EventRow | null> {
	const row = await db.event.findUnique({ where: { id } });
	return row ? toEvent(row) : null;
}

/** The event, its row locked for the rest of the transaction (no statement on SQLite, see lockRows). */
export async function findEventForUpdate(tx: Tx, id: number): Promise<EventRow | null> {
	await lockRows(tx, 'events', 'id', [id]);
	return findEvent(tx, id);
}

async function mustFind(tx: Tx, id: number): Promise<EventRow> {
	const event = await findEventForUpdate(tx, id);
	if (!event) throw new DomainError({ code: 'EventNotFound' });
	return event;
}

function fieldsData(fields: EventFields) {
	return {
		name: fields.name,
		startsOn: fields.startsOn,
		endsOn: fields.endsOn,
		titleTemplate: fields.titleTemplate,
		captionsJson: fields.captions ? JSON.stringify(fields.captions) : null,
		// Left out (an older client): a new event gets the column's default, an update keeps its count.
		...(fields.animatedStickers === undefined ? {} : { animatedStickers: fields.animatedStickers }),
		brandPrimary: fields.brandPrimary,
		brandAccent: fields.brandAccent
	};
}

/** A new event starts as a draft with no published catalogue (publishing its first draft makes version 1). */
export function createEvent(db: Db, clock: Clock, actor: Actor, fields: EventFields): Promise<EventRow> {
	return db.$transaction(async (tx) => {
		const now = clock.now().toISOString();
		const row = await tx.event.create({
			data: { ...fieldsData(fields), state: 'draft', catalogueVersion: null, createdAt: now, updatedAt: now }
		});
		await recordAudit(tx, clock, actor, { action: 'event_create', details: { eventId: row.id, name: row.name } });
		return toEvent(row);
	});
}

export function updateEvent(db: Db, clock: Clock, actor: Actor, id: number, fields: EventFields): Promise<EventRow> {
	return db.$transaction(async (tx) => {
		const before = await mustFind(tx, id);
		if (before.state === 'ended') throw new DomainError({ code: 'EventEnded', kept: 'settings' });
		const row = await tx.event.update({
			where: { id },
			data: { ...fieldsData(fields), updatedAt: clock.now().toISOString() }
		});
		await recordAudit(tx, clock, actor, { action: 'event_update', details: { eventId: id, name: row.name } });
		return toEvent(row);
	});
}

/**
 * draft → live. Needs a published catalogue, and none of its kiosks may be in another live event:
 * the kiosks are locked as assignKiosks locks them, so two events sharing one cannot both start.
 */
export function startEvent(db: Db, clock: Clock, actor: Actor, id: number): Promise<EventRow> {
	return db.$transaction(async (tx) => {
		const event = await mustFind(tx, id);
		if (event.state !== 'draft') throw new DomainError({ code: 'EventNotStartable', state: event.state });
		if (event.catalogueVersion === null) throw new DomainError({ code: 'EventCatalogueUnpublished' });
		await lockEventKiosks(tx, id);
		const taken = await kiosksLiveElsewhere(tx, id);
		if (taken.length > 0)
			throw new DomainError({
				code: 'KioskLiveElsewhere',
				kiosks: taken.map((k) => k.kioskName),
				liveEvent: taken[0]!.eventName,
				starting: true
			});
		const row = await tx.event.update({ where: { id }, data: { state: 'live', updatedAt: clock.now().toISOString() } });
		await recordAudit(tx, clock, actor, { action: 'event_start', details: { eventId: id } });
		return toEvent(row);
	});
}

/**
 * live → ended. Queued and running jobs are not touched: each carries its own snapshot of event and
 * outfit, so they finish as they were ordered. New sessions of its kiosks go to the default event.
 */
export function endEvent(
	db: Db,
	clock: Clock,
	actor: Actor,
	id: number
): Promise<{ event: EventRow; jobsStillRunning: number }> {
	return db.$transaction(async (tx) => {
		const event = await mustFind(tx, id);
		if (event.state !== 'live') throw new DomainError({ code: 'EventNotLive', state: event.state });
		const row = await tx.event.update({
			where: { id },
			data: { state: 'ended', updatedAt: clock.now().toISOString() }
		});
		const jobsStillRunning = await countUnfinishedJobs(tx, id);
		await recordAudit(tx, clock, actor, { action: 'event_end', details: { eventId: id, jobsStillRunning } });
		return { event: toEvent(row), jobsStillRunning };
	});
}

async function countUnfinishedJobs(tx: Tx, eventId: number): Promise<number> {
	const snapshots = await tx.jobSnapshot.findMany({ where: { eventId }, select: { jobId: true } });
	if (snapshots.length === 0) return 0;
	return tx.job.count({
		where: { jobId: { in: snapshots.map((s) => s.jobId) }, status: { in: [...ACTIVE_JOB_STATUSES] } }
	});
}

/** The event a new session of this kiosk belongs to: its live event, else the default event. */
export async function eventForKiosk(db: Db | Tx, kioskId: number): Promise<number> {
	const links = await db.eventKiosk.findMany({ where: { kioskId }, select: { eventId: true } });
	if (links.length === 0) return DEFAULT_EVENT_ID;
	const live = await db.event.findFirst({
		where: { id: { in: links.map((l) => l.eventId) }, state: 'live' },
		select: { id: true }
	});
	return live?.id ?? DEFAULT_EVENT_ID;
}
