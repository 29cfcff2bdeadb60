import type { Db, Tx } from '../db/client.ts';
import { outfitSchema, type OutfitSnapshot } from '../../schemas/outfit.ts';
import type { Clock } from '../time/clock.ts';

/**
 * What a job is made from, frozen when it is queued (job_snapshots): its event, the catalogue
 * version the guest chose from and the outfit exactly as published there. Written once, in the
 * transaction that queues the job, so a publish or a rollback afterwards never changes the pack.
 */
export interface JobSnapshot {
	jobId: number;
	eventId: number;
	catalogueVersion: number;
	outfit: OutfitSnapshot;
}

export async function writeJobSnapshot(db: Db | Tx, clock: Clock, snapshot: JobSnapshot): Promise<void> {
	const outfit = outfitSchema.parse(snapshot.outfit);
	await db.jobSnapshot.create({
		data: {
			jobId: snapshot.jobId,
			eventId: snapshot.eventId,
			catalogueVersion: snapshot.catalogueVersion,
			outfitJson: JSON.stringify(outfit),
			createdAt: clock.now().toISOString()
		}
	});
}

/** The job's snapshot, or null for a job queued before events (or one whose stored outfit no longer reads). */
export async function readJobSnapshot(db: Db | Tx, jobId: number): Promise<JobSnapshot | null> {
	const row = await db.jobSnapshot.findUnique({ where: { jobId } });
	if (!row) return null;
	const outfit = outfitSchema.safeParse(parseJson(row.outfitJson));
	if (!outfit.success) return null;
	return { jobId, eventId: row.eventId, catalogueVersion: row.catalogueVersion, outfit: outfit.data };
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}
