import { canAct, type OperatorIdentity } from '../auth/roles.ts';
import type { FileStore } from '../files/file-store.ts';
import { readLimited } from '../kiosk/photo-upload.ts';
import { PhotoRejected } from '../media/photo-normalise.ts';
import { MAX_BROADCAST_IMAGE_BYTES, readBroadcastImage, resolveBroadcastImage, storeBroadcastImage } from './broadcast-image.ts';

/**
 * POST /api/console/broadcasts/image: a broadcast's picture as the raw request body (content
 * sniffed, never trusted from its type), up to MAX_BROADCAST_IMAGE_BYTES (web/body-limit.ts leaves
 * this route's size to it). 201 {name} or 4xx {error} with a sentence for the console.
 * GET …/image/<name>: the stored picture, for the preview.
 */
const REFUSALS: Record<PhotoRejected['problem'], string> = {
	not_an_image: 'This file is not a picture: upload a JPEG, PNG or WebP image.',
	unsupported: 'This picture’s format does not match its contents: save it again as JPEG or PNG.',
	too_many_pixels: 'This picture has too many pixels (more than 40 megapixels): make it smaller.',
	damaged: 'This picture cannot be read (damaged or cut off): export it again.'
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export async function answerBroadcastImageUpload(files: FileStore, operator: OperatorIdentity | null | undefined, request: Request): Promise<Response> {
	if (!operator) return json(401, { error: 'Please sign in to the console.' });
	if (!canAct(operator.role)) return json(403, { error: 'Your role is viewer: you can look at everything but not change it.' });
	const tooBig = json(413, { error: `This picture is larger than ${MAX_BROADCAST_IMAGE_BYTES / 1024 / 1024} MB, the most Telegram takes: make it smaller.` });
	const length = Number(request.headers.get('content-length') ?? NaN);
	if (Number.isFinite(length) && length > MAX_BROADCAST_IMAGE_BYTES) {
		// Read and dropped, so the connection ends cleanly and the sentence reaches the console.
		void request.body?.pipeTo(new WritableStream()).catch(() => undefined);
		return tooBig;
	}
	const bytes = await readLimited(request.body, MAX_BROADCAST_IMAGE_BYTES);
	if (!bytes) return tooBig;
	try {
		return json(201, { name: await storeBroadcastImage(files, bytes) });
	} catch (error) {
		if (error instanceof PhotoRejected) return json(400, { error: REFUSALS[error.problem] });
		throw error;
	}
}

export async function answerBroadcastImage(files: FileStore, operator: OperatorIdentity | null | undefined, name: string): Promise<Response> {
	if (!operator) return json(401, { error: 'Please sign in to the console.' });
	const reference = await resolveBroadcastImage(files, name);
	const bytes = reference ? await readBroadcastImage(files, reference) : null;
	if (!bytes) return json(404, { error: 'No such picture.' });
	return new Response(new Uint8Array(bytes), { headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, no-store' } });
}
