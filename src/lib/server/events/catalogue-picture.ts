import { renderCatalogueSheet, renderPreviewPng } from '../media/photo-outfit-art.ts';
import { outfitArtSvg } from '../outfits/outfit-art.ts';
import type { Outfit } from '../../schemas/outfit.ts';
import type { FileStore } from '../files/file-store.ts';
import type { PublishedCatalogue } from './catalogue.repository.ts';
import { outfitPreviewKey } from './outfit-previews.ts';

/**
 * The numbered picture of a published catalogue the bot sends with the outfit buttons. Drawn once
 * per version (versions never change) into the file store (`catalogues/`); the bot then re-sends it by
 * Telegram file_id (media_files). Uploaded previews: outfit-previews.ts.
 */
export function cataloguePictureKey(catalogue: Pick<PublishedCatalogue, 'eventId' | 'version'>): string {
	return `catalogues/event-${catalogue.eventId}-v${catalogue.version}.jpg`;
}

/** The outfit's preview: the operator's upload, else its costume in its palette. */
export async function outfitPreviewPng(files: FileStore, outfit: Outfit): Promise<Buffer> {
	if (outfit.preview) {
		const uploaded = await files.get(outfitPreviewKey(outfit.preview));
		if (uploaded) return uploaded;
	}
	return renderPreviewPng(outfitArtSvg(outfit.figure, outfit.palette, outfit.id));
}

export async function cataloguePicture(files: FileStore, catalogue: PublishedCatalogue): Promise<Buffer> {
	const key = cataloguePictureKey(catalogue);
	const drawn = await files.get(key);
	if (drawn) return drawn;
	const previews = await Promise.all(catalogue.outfits.map((outfit) => outfitPreviewPng(files, outfit)));
	const sheet = await renderCatalogueSheet(previews);
	// Written whole: two bot updates drawing at once never see half a file.
	await files.put(key, sheet);
	return sheet;
}
