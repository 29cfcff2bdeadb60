import type { Db } from '../db/client.ts';
import { sessionEventId } from '../kiosk/kiosk-sessions.repository.ts';
import type { Outfit } from '../../schemas/outfit.ts';
import { outfitForJob, readPublished, type PublishedCatalogue } from './catalogue.repository.ts';
import { DEFAULT_EVENT_ID } from './events.repository.ts';

/** What the guest of this session is offered: their event's published catalogue (the default event's before its first publish). */
export async function offeredCatalogue(db: Db, sessionToken: string): Promise<PublishedCatalogue> {
	const eventId = await sessionEventId(db, sessionToken);
	const published = (await readPublished(db, eventId)) ?? (await readPublished(db, DEFAULT_EVENT_ID));
	if (!published) throw new Error('the default event has no published catalogue: the events migration did not run');
	return published;
}

/** An outfit button is honoured only for an outfit the guest's event offers now. */
export async function offeredOutfit(db: Db, sessionToken: string, outfitId: string): Promise<Outfit | undefined> {
	return (await offeredCatalogue(db, sessionToken)).outfits.find((outfit) => outfit.id === outfitId);
}

/** The outfit a guest of this session chose, as their event published it (still found after a roll back took it off). */
export async function chosenOutfit(db: Db, sessionToken: string, outfitId: string): Promise<Outfit | undefined> {
	return (await outfitForJob(db, await sessionEventId(db, sessionToken), outfitId))?.outfit;
}
