import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { renderCatalogueSheet, renderPreviewPng } from '../media/photo-outfit-art.ts';
import { outfitArtSvg } from '../outfits/outfit-art.ts';
import type { Outfit } from '../../schemas/outfit.ts';
import { writeFileAtomic } from '../files/local-file-store.ts';
import type { PublishedCatalogue } from './catalogue.repository.ts';
import { outfitPreviewsDir } from './outfit-previews.ts';

/**
 * The numbered picture of a published catalogue the bot sends with the outfit buttons. Drawn once
 * per version (versions never change) into the data directory; the bot then re-sends it by
 * Telegram file_id (media_files). Uploaded previews: outfit-previews.ts.
 */
export function cataloguePicturePath(dataDir: string, catalogue: Pick<PublishedCatalogue, 'eventId' | 'version'>): string {
	return path.join(dataDir, 'catalogues', `event-${catalogue.eventId}-v${catalogue.version}.jpg`);
}

/** The outfit's preview: the operator's upload, else its costume in its palette. */
export async function outfitPreviewPng(dataDir: string, outfit: Outfit): Promise<Buffer> {
	if (outfit.preview) {
		const uploaded = path.join(outfitPreviewsDir(dataDir), path.basename(outfit.preview));
		if (existsSync(uploaded)) return readFile(uploaded);
	}
	return renderPreviewPng(outfitArtSvg(outfit.figure, outfit.palette, outfit.id));
}

export async function cataloguePicture(dataDir: string, catalogue: PublishedCatalogue): Promise<Buffer> {
	const file = cataloguePicturePath(dataDir, catalogue);
	if (existsSync(file)) return readFile(file);
	const previews = await Promise.all(catalogue.outfits.map((outfit) => outfitPreviewPng(dataDir, outfit)));
	const sheet = await renderCatalogueSheet(previews);
	// Written whole: two bot updates drawing at once never see half a file.
	await writeFileAtomic(file, sheet);
	return sheet;
}
