import type { Db } from '../db/client.ts';
import { outfitPreviewPng } from '../events/catalogue-picture.ts';
import { readPublished } from '../events/catalogue.repository.ts';
import { DEFAULT_EVENT_ID, eventForKiosk, findEvent } from '../events/events.repository.ts';
import type { FileStore } from '../files/file-store.ts';
import { kioskTheme } from '../../schemas/brand-colours.ts';
import type { KioskStartScreen } from '../../schemas/kiosk.ts';
import { pictureVersion } from './kiosk-outfit-preview.ts';

/**
 * What the kiosk's Start screen shows of the event it serves (its live event, else the default
 * event): the event's name, its colours, and a sample of what guests can become.
 *
 * The sample is the event's outfit pictures, never guests' stickers. The bot's consent covers one
 * use of the selfie — drawing the guest's own pack (guest-flow i18n, `consentPrompt`) — and no
 * consent anywhere in the product lets a guest's face be shown to the room, so a public screen
 * shows the catalogue's pictures (the operator's previews, else the costumes drawn in their
 * colours): the same pictures the bot's catalogue sends, no personal data. docs/kiosk.md says so.
 */
export const SAMPLE_SIZE = 6;

export async function readKioskStartScreen(db: Db, kioskId: number): Promise<KioskStartScreen> {
	const eventId = await eventForKiosk(db, kioskId);
	const event = await findEvent(db, eventId);
	const catalogue = (await readPublished(db, eventId)) ?? (await readPublished(db, DEFAULT_EVENT_ID));
	return {
		// The default event stands for "no event": its name is the console's, not the guests'.
		eventName: event && event.id !== DEFAULT_EVENT_ID ? event.name : null,
		theme: kioskTheme(event?.brandPrimary ?? null, event?.brandAccent ?? null),
		branded: Boolean(event?.brandPrimary),
		sample: (catalogue?.outfits ?? []).slice(0, SAMPLE_SIZE).map((outfit) => ({
			id: outfit.id,
			emoji: outfit.emoji,
			title: outfit.title,
			picture: `/api/kiosk/sample/${encodeURIComponent(outfit.id)}?v=${pictureVersion(outfit)}`
		}))
	};
}

/** The picture of one sampled outfit of this kiosk's event; null when the event offers no such outfit in its sample. */
export async function readKioskSamplePicture(
	db: Db,
	files: FileStore,
	kioskId: number,
	outfitId: string
): Promise<Buffer | null> {
	const eventId = await eventForKiosk(db, kioskId);
	const catalogue = (await readPublished(db, eventId)) ?? (await readPublished(db, DEFAULT_EVENT_ID));
	const outfit = catalogue?.outfits.slice(0, SAMPLE_SIZE).find((o) => o.id === outfitId);
	return outfit ? outfitPreviewPng(files, outfit) : null;
}
