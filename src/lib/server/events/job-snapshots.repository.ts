import type { Db, Tx } from '../db/client.ts';
import { outfitSchema, type OutfitSnapshot } from '../../schemas/outfit.ts';
import { outfitForJob } from './catalogue.repository.ts';
import { DEFAULT_EVENT_ID } from './events.repository.ts';

/**
 * `job_snapshots`: what a job is made from, frozen in the transaction that queues it — the
 * session's event, the catalogue version and the outfit exactly as published there. Publishing
 * or rolling back later never changes a pack being made. Rows go with their job.
 */
export interface JobSnapshot {
	eventId: number;
	catalogueVersion: number;
	outfit: OutfitSnapshot;
}

export class OutfitNotInCatalogue extends Error {
	constructor(eventId: number, outfitId: string) {
		super(`outfit "${outfitId}" is in no catalogue version of event ${eventId}`);
		this.name = 'OutfitNotInCatalogue';
	}
}

export async function sessionEventId(db: Db | Tx, sessionToken: string): Promise<number> {
	const row = await db.kioskSession.findUnique({ where: { sessionToken }, select: { eventId: true } });
	return row?.eventId ?? DEFAULT_EVENT_ID;
}

export async function writeJobSnapshot(tx: Tx, job: { jobId: number; sessionToken: string; outfitId: string; now: string }): Promise<JobSnapshot> {
	const eventId = await sessionEventId(tx, job.sessionToken);
	const found = await outfitForJob(tx, eventId, job.outfitId);
	if (!found) throw new OutfitNotInCatalogue(eventId, job.outfitId);
	await tx.jobSnapshot.create({ data: { jobId: job.jobId, eventId, catalogueVersion: found.version, outfitJson: JSON.stringify(found.outfit), createdAt: job.now } });
	return { eventId, catalogueVersion: found.version, outfit: found.outfit };
}

export async function readJobSnapshot(db: Db | Tx, jobId: number): Promise<JobSnapshot | null> {
	const row = await db.jobSnapshot.findUnique({ where: { jobId } });
	return row ? { eventId: row.eventId, catalogueVersion: row.catalogueVersion, outfit: outfitSchema.parse(JSON.parse(row.outfitJson)) } : null;
}

