import { artefactUrl } from '../console/artefact-files.ts';
import type { FileStore } from '../files/file-store.ts';
import { MAX_PREVIEW_BYTES, MAX_PREVIEW_PIXELS } from '../media/preview-normalise.ts';
import type { PictureUploadRoute } from '../web/picture-upload.ts';
import { storeOutfitPreview } from './outfit-previews.ts';

/**
 * POST /api/console/outfit-previews: the catalogue editor's preview upload, the picture's bytes as
 * the body, up to 2 MB and 4 megapixels. Answers 200 {preview, url}: the stored file's name, which
 * the editor puts in the outfit and saves with the draft (200, not 201: the name is the picture's
 * hash, so the same picture uploaded again is the file already there). Refusals are the console's
 * picture uploads' own (web/picture-upload.ts answers for both routes).
 */
export function outfitPreviewUpload(files: FileStore): PictureUploadRoute {
	return {
		maxBytes: MAX_PREVIEW_BYTES,
		maxPixels: MAX_PREVIEW_PIXELS,
		store: async (bytes) => {
			const preview = await storeOutfitPreview(files, bytes);
			return { status: 200, body: { preview, url: artefactUrl(`outfit-previews/${preview}`) } };
		}
	};
}
