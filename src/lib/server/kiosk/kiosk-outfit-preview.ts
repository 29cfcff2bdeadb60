import { createHash } from 'node:crypto';
import { outfitPreviewPng } from '../events/catalogue-picture.ts';
import { chosenOutfit } from '../events/offered-catalogue.ts';
import { findSession } from '../guests/sessions.repository.ts';
import type { FileStore } from '../files/file-store.ts';
import type { Outfit } from '../../schemas/outfit.ts';
import type { KioskSessionView } from '../../schemas/kiosk.ts';
import type { KioskDeps } from './kiosk-session.ts';
import { isSessionOfKiosk } from './kiosk-sessions.repository.ts';

/**
 * The chosen outfit as the kiosk's camera screen shows it: emoji, titles and the picture of the
 * outfit as its event's catalogue publishes it — the operator's uploaded preview, else the costume
 * drawn in its palette — the same picture the bot's catalogue sheet shows
 * (events/catalogue-picture.ts). The picture's address names the session and carries a short hash
 * of what the picture is drawn from, so a changed preview is a new address and the old one may be cached.
 */
export function kioskOutfitView(token: string, outfit: Outfit): NonNullable<KioskSessionView['outfit']> {
	return {
		emoji: outfit.emoji,
		title: outfit.title,
		preview: `/api/kiosk/sessions/${token}/outfit-preview?v=${pictureVersion(outfit)}`
	};
}

/** Changes with what the picture is drawn from, so the page may cache an address for a day. */
export function pictureVersion(outfit: Outfit): string {
	const drawnFrom = JSON.stringify([outfit.id, outfit.figure, outfit.palette, outfit.preview]);
	return createHash('sha256').update(drawnFrom).digest('hex').slice(0, 12);
}

/** The PNG of the outfit this kiosk's session chose; null when the session is not this kiosk's or has no outfit. */
export async function readKioskOutfitPreview(
	deps: Pick<KioskDeps, 'db'>,
	files: FileStore,
	kioskId: number,
	token: string
): Promise<Buffer | null> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return null;
	const templateId = (await findSession(deps.db, token))?.templateId;
	const outfit = templateId ? await chosenOutfit(deps.db, token, templateId) : undefined;
	return outfit ? outfitPreviewPng(files, outfit) : null;
}
