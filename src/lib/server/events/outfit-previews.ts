import { createHash } from 'node:crypto';
import path from 'node:path';
import { DomainError, type PictureProblem } from '../errors/domain-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { PhotoRejected } from '../media/photo-normalise.ts';
import { MAX_PREVIEW_BYTES, MAX_PREVIEW_PIXELS, normalisePreview } from '../media/preview-normalise.ts';

/**
 * Outfit preview pictures operators upload, kept normalised under `outfit-previews/` in the file
 * store (DATA_DIR or the bucket, so every web process and worker sees them) and named
 * by the hash of the stored bytes: a name never changes its picture, so every published catalogue
 * version that names it keeps showing the same one, and uploading the same picture twice stores
 * it once. Previews show costumes, not guests: nothing personal is kept here.
 */
export function outfitPreviewsDir(dataDir: string): string {
	return path.join(dataDir, 'outfit-previews');
}

/** The store key of an uploaded preview (outfit.preview holds only the name). */
export function outfitPreviewKey(name: string): string {
	return `outfit-previews/${path.basename(name)}`;
}

/** What outfit.preview holds: the stored file's name. */
export function previewFileName(stored: Buffer): string {
	return `${createHash('sha256').update(stored).digest('hex').slice(0, 32)}.png`;
}

/** Checks, normalises and stores an upload; returns the file name for the outfit, or refuses in the domain's terms. */
export async function storeOutfitPreview(files: FileStore, upload: Buffer): Promise<string> {
	const refuse = (problem: PictureProblem) =>
		new DomainError({ code: 'PictureRejected', problem, maxBytes: MAX_PREVIEW_BYTES, maxPixels: MAX_PREVIEW_PIXELS });
	if (upload.byteLength > MAX_PREVIEW_BYTES) throw refuse('too_big');
	const stored = await normalisePreview(upload).catch((error: unknown) => {
		if (!(error instanceof PhotoRejected)) throw error;
		throw refuse(error.problem === 'unsupported' ? 'not_an_image' : error.problem);
	});
	const name = previewFileName(stored);
	// Written whole: the bot drawing a catalogue picture never reads half a file.
	await files.put(outfitPreviewKey(name), stored);
	return name;
}
