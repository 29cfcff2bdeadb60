import { recordAudit, type Actor } from '../audit/audit-log.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { Db, Tx } from '../db/client.ts';
import type { Clock } from '../time/clock.ts';
import { catalogueSchema } from '../../schemas/event.ts';
import { ACTIVE_JOB_STATUSES } from '../../schemas/job-status.ts';
import { outfitSchema, type Outfit } from '../../schemas/outfit.ts';
import { describeCatalogueChange } from './catalogue-changes.ts';
import { SEED_OUTFITS } from '../outfits/seed-catalogue.ts';
import { DEFAULT_EVENT_ID, findEventForUpdate } from './events.repository.ts';

/**
 * An event's outfit catalogue: one draft operators edit (catalogue_drafts) and immutable published
 * versions (catalogue_versions); events.catalogue_version names the one guests are offered. The one
 * owner of both tables. Publishing and rolling back write a new version, never change an old one.
 */
export interface CatalogueDraft {
	eventId: number;
	outfits: Outfit[];
	/** Saves so far: a save names the revision it started from. */
	revision: number;
	updatedBy: string;
	updatedAt: string;
}

export interface CatalogueVersionRow {
	version: number;
	outfits: Outfit[];
	publishedBy: string;
	publishedAt: string;
	rolledBackFrom: number | null;
	changeSummary: string;
}

export interface PublishedCatalogue {
	eventId: number;
	version: number;
	outfits: Outfit[];
}

/** The outfits as checked, or the catalogue's first problem (with the outfit's place in the list). */
export function checkCatalogue(outfits: unknown): Outfit[] {
	const result = catalogueSchema.safeParse(outfits);
	if (result.success) return result.data;
	const issue = result.error.issues[0]!;
	throw new DomainError({
		code: 'CatalogueInvalid',
		outfitNumber: typeof issue.path[0] === 'number' ? issue.path[0] + 1 : null,
		problem: issue.message
	});
}

const parseOutfits = (json: string): Outfit[] => outfitSchema.array().parse(JSON.parse(json));

export async function readDraft(db: Db | Tx, eventId: number): Promise<CatalogueDraft> {
	const row = await db.catalogueDraft.findUnique({ where: { eventId } });
	if (row)
		return {
			eventId,
			outfits: parseOutfits(row.outfitsJson),
			revision: row.revision,
			updatedBy: row.updatedBy,
			updatedAt: row.updatedAt
		};
	// A new event's draft starts as the default event's published catalogue: a sensible base to edit.
	const base = await readPublished(db, 1);
	return { eventId, outfits: base?.outfits ?? [], revision: 0, updatedBy: '', updatedAt: '' };
}

/** Saves the draft if nobody saved it since `revision`; otherwise tells the operator to reload (nothing overwritten). */
export async function saveDraft(
	db: Db,
	clock: Clock,
	actor: Actor,
	eventId: number,
	revision: number,
	outfits: readonly unknown[]
): Promise<CatalogueDraft> {
	const checked = checkCatalogue(outfits);
	return db.$transaction(async (tx) => {
		await mustExist(tx, eventId);
		const current = await tx.catalogueDraft.findUnique({
			where: { eventId },
			select: { revision: true, updatedBy: true }
		});
		if ((current?.revision ?? 0) !== revision) {
			throw new DomainError({ code: 'DraftSavedMeanwhile', savedBy: current?.updatedBy || null });
		}
		const now = clock.now().toISOString();
		const data = {
			outfitsJson: JSON.stringify(checked),
			revision: revision + 1,
			updatedBy: actor.name,
			updatedAt: now
		};
		await tx.catalogueDraft.upsert({ where: { eventId }, create: { eventId, ...data }, update: data });
		await recordAudit(tx, clock, actor, {
			action: 'catalogue_save',
			details: { eventId, revision: revision + 1, outfits: checked.map((o) => o.id) }
		});
		return { eventId, outfits: checked, revision: revision + 1, updatedBy: actor.name, updatedAt: now };
	});
}

/**
 * The draft as saved becomes version N+1 and what guests of the event are offered from now on.
 * Removing an outfit that queued jobs use is allowed: each job keeps its own snapshot, and the
 * answer says how many such packs are still to be made, so the operator knows they will finish.
 */
export function publishDraft(
	db: Db,
	clock: Clock,
	actor: Actor,
	eventId: number,
	revision: number
): Promise<CatalogueVersionRow & { queuedWithRemovedOutfits: number }> {
	return db.$transaction(async (tx) => {
		await mustExist(tx, eventId);
		const draft = await readDraft(tx, eventId);
		if (draft.revision !== revision) throw new DomainError({ code: 'DraftChangedBeforePublish' });
		const outfits = checkCatalogue(draft.outfits);
		const before = (await readPublished(tx, eventId))?.outfits ?? [];
		const published = await writeVersion(tx, clock, actor, eventId, outfits, null);
		const removed = before.map((o) => o.id).filter((id) => !outfits.some((o) => o.id === id));
		const queuedWithRemovedOutfits = await countUnfinishedJobsWith(tx, eventId, removed);
		await recordAudit(tx, clock, actor, {
			action: 'catalogue_publish',
			details: { eventId, version: published.version, change: published.changeSummary, queuedWithRemovedOutfits }
		});
		return { ...published, queuedWithRemovedOutfits };
	});
}

/** Jobs of the event still to be made whose snapshot is one of these outfits. */
async function countUnfinishedJobsWith(tx: Tx, eventId: number, outfitIds: string[]): Promise<number> {
	if (outfitIds.length === 0) return 0;
	const active = await tx.job.findMany({
		where: { status: { in: [...ACTIVE_JOB_STATUSES] } },
		select: { jobId: true }
	});
	if (active.length === 0) return 0;
	const snapshots = await tx.jobSnapshot.findMany({
		where: { eventId, jobId: { in: active.map((j) => j.jobId) } },
		select: { outfitJson: true }
	});
	// Snapshots are validated when written (job-snapshot.repository.ts): the id is there.
	return snapshots.filter((s) => outfitIds.includes((JSON.parse(s.outfitJson) as { id: string }).id)).length;
}

/** Publishes an earlier version's outfits again as a new version (history stays whole); the draft follows. */
export function rollBackTo(
	db: Db,
	clock: Clock,
	actor: Actor,
	eventId: number,
	version: number
): Promise<CatalogueVersionRow> {
	return db.$transaction(async (tx) => {
		await mustExist(tx, eventId);
		const earlier = await tx.catalogueVersion.findUnique({ where: { eventId_version: { eventId, version } } });
		if (!earlier) throw new DomainError({ code: 'CatalogueVersionNotFound', version });
		const outfits = parseOutfits(earlier.outfitsJson);
		const published = await writeVersion(tx, clock, actor, eventId, outfits, version);
		const draft = await tx.catalogueDraft.findUnique({ where: { eventId }, select: { revision: true } });
		const data = {
			outfitsJson: earlier.outfitsJson,
			revision: (draft?.revision ?? 0) + 1,
			updatedBy: actor.name,
			updatedAt: published.publishedAt
		};
		await tx.catalogueDraft.upsert({ where: { eventId }, create: { eventId, ...data }, update: data });
		await recordAudit(tx, clock, actor, {
			action: 'catalogue_rollback',
			details: { eventId, version: published.version, rolledBackFrom: version }
		});
		return published;
	});
}

async function writeVersion(
	tx: Tx,
	clock: Clock,
	actor: Actor,
	eventId: number,
	outfits: Outfit[],
	rolledBackFrom: number | null
): Promise<CatalogueVersionRow> {
	const previous = await readPublished(tx, eventId);
	const version =
		((await tx.catalogueVersion.aggregate({ where: { eventId }, _max: { version: true } }))._max.version ?? 0) + 1;
	const now = clock.now().toISOString();
	const summary =
		(rolledBackFrom !== null ? `Rolled back to version ${rolledBackFrom}. ` : '') +
		describeCatalogueChange(previous?.outfits ?? null, outfits);
	const row = {
		eventId,
		version,
		outfitsJson: JSON.stringify(outfits),
		publishedBy: actor.name,
		publishedAt: now,
		rolledBackFrom,
		changeSummary: summary
	};
	await tx.catalogueVersion.create({ data: row });
	await tx.event.update({ where: { id: eventId }, data: { catalogueVersion: version, updatedAt: now } });
	return { version, outfits, publishedBy: actor.name, publishedAt: now, rolledBackFrom, changeSummary: summary };
}

/**
 * Every catalogue write starts here: the event's row stays locked until it commits, so two saves
 * from one revision or two publishes (the next version number) never both read the same state.
 */
async function mustExist(tx: Tx, eventId: number): Promise<void> {
	const event = await findEventForUpdate(tx, eventId);
	if (!event) throw new DomainError({ code: 'EventNotFound' });
	if (event.state === 'ended') throw new DomainError({ code: 'EventEnded', kept: 'catalogue' });
}

/** Who the history says published the seed. */
export const SEED_PUBLISHER = 'seed';

/**
 * At each process's start: the default event with no published catalogue (the events migration
 * normally wrote version 1) gets the built-in outfits as its first version, and as its draft when
 * it has none, so guests are always offered something and the console edits the same list. Returns
 * the version written, or null when there was nothing to do (the usual case). Two processes
 * starting together: the event's row is locked, the second finds the first's version.
 */
export async function seedDefaultCatalogue(db: Db, clock: Clock): Promise<number | null> {
	// The usual case reads one row and takes no write lock (every start of every process runs this).
	const current = await db.event.findUnique({ where: { id: DEFAULT_EVENT_ID }, select: { catalogueVersion: true } });
	if (!current || current.catalogueVersion !== null) return null;
	return db.$transaction(async (tx) => {
		const event = await findEventForUpdate(tx, DEFAULT_EVENT_ID);
		if (!event || event.catalogueVersion !== null) return null;
		const actor: Actor = { name: SEED_PUBLISHER, ip: null };
		const outfits = checkCatalogue(SEED_OUTFITS);
		const seeded = await writeVersion(tx, clock, actor, DEFAULT_EVENT_ID, outfits, null);
		const draft = {
			outfitsJson: JSON.stringify(outfits),
			revision: 0,
			updatedBy: SEED_PUBLISHER,
			updatedAt: seeded.publishedAt
		};
		await tx.catalogueDraft.upsert({
			where: { eventId: DEFAULT_EVENT_ID },
			create: { eventId: DEFAULT_EVENT_ID, ...draft },
			update: {}
		});
		return seeded.version;
	});
}

/** Newest first, for the history list. */
export async function listVersions(db: Db | Tx, eventId: number): Promise<CatalogueVersionRow[]> {
	const rows = await db.catalogueVersion.findMany({ where: { eventId }, orderBy: { version: 'desc' } });
	return rows.map((r) => ({
		version: r.version,
		outfits: parseOutfits(r.outfitsJson),
		publishedBy: r.publishedBy,
		publishedAt: r.publishedAt,
		rolledBackFrom: r.rolledBackFrom,
		changeSummary: r.changeSummary
	}));
}

/** What the event's guests are offered now; null before its first publish. */
export async function readPublished(db: Db | Tx, eventId: number): Promise<PublishedCatalogue | null> {
	const event = await db.event.findUnique({ where: { id: eventId }, select: { catalogueVersion: true } });
	if (!event?.catalogueVersion) return null;
	return readVersion(db, eventId, event.catalogueVersion);
}

export async function readVersion(db: Db | Tx, eventId: number, version: number): Promise<PublishedCatalogue | null> {
	const row = await db.catalogueVersion.findUnique({ where: { eventId_version: { eventId, version } } });
	return row ? { eventId, version, outfits: parseOutfits(row.outfitsJson) } : null;
}

/** A guest's outfit that no version of their event's catalogue has: never offered, so never queued. */
export class OutfitNotInCatalogue extends Error {
	constructor(eventId: number, outfitId: string) {
		super(`outfit "${outfitId}" is in no catalogue version of event ${eventId}`);
		this.name = 'OutfitNotInCatalogue';
	}
}

/**
 * The outfit a guest picked, as the newest version of the event that offers it: normally the
 * published one; an older one when a roll back came between the guest's choice and the photo.
 */
export async function outfitForJob(
	db: Db | Tx,
	eventId: number,
	outfitId: string
): Promise<{ version: number; outfit: Outfit } | null> {
	const rows = await db.catalogueVersion.findMany({ where: { eventId }, orderBy: { version: 'desc' } });
	const event = await db.event.findUnique({ where: { id: eventId }, select: { catalogueVersion: true } });
	const current = rows.find((r) => r.version === event?.catalogueVersion);
	for (const row of current ? [current, ...rows.filter((r) => r !== current)] : rows) {
		const outfit = parseOutfits(row.outfitsJson).find((o) => o.id === outfitId);
		if (outfit) return { version: row.version, outfit };
	}
	return null;
}
