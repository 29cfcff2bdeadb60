import type { OperatorIdentity } from '../auth/roles.ts';
import type { FileStore } from '../files/file-store.ts';
import { MAX_INPUT_PIXELS } from '../media/photo-normalise.ts';
import { json, refuseSignedOut, type PictureUploadRoute } from '../web/picture-upload.ts';
import {
	MAX_BROADCAST_IMAGE_BYTES,
	readBroadcastImage,
	resolveBroadcastImage,
	storeBroadcastImage
} from './broadcast-image.ts';

/**
 * POST /api/console/broadcasts/image: a broadcast's picture as the raw request body, up to
 * MAX_BROADCAST_IMAGE_BYTES (Telegram's limit for photos) and 40 megapixels. 201 {name}; the
 * answer and its refusals are the console's picture uploads' own (web/picture-upload.ts).
 * GET …/image/<name>: the stored picture, for the preview.
 */
export function broadcastImageUpload(files: FileStore): PictureUploadRoute {
	return {
		maxBytes: MAX_BROADCAST_IMAGE_BYTES,
		maxPixels: MAX_INPUT_PIXELS,
		store: async (bytes) => ({ status: 201, body: { name: await storeBroadcastImage(files, bytes) } })
	};
}

export async function answerBroadcastImage(
	files: FileStore,
	operator: OperatorIdentity | null | undefined,
	name: string
): Promise<Response> {
	if (!operator) return refuseSignedOut();
	const reference = await resolveBroadcastImage(files, name);
	const bytes = reference ? await readBroadcastImage(files, reference) : null;
	if (!bytes) return json(404, { error: 'No such picture.' });
	return new Response(new Uint8Array(bytes), {
		headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, no-store' }
	});
}
