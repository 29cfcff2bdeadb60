import { randomBytes } from 'node:crypto';
import type { FileStore } from '../files/file-store.ts';
import { normalisePhoto } from '../media/photo-normalise.ts';
import { BROADCAST_IMAGE_NAME } from '../../schemas/broadcast.schema.ts';

/**
 * A broadcast's picture, checked like every upload (real JPEG/PNG/WebP by its bytes, a pixel
 * limit before decoding, metadata dropped) and stored as a clean JPEG under `broadcasts/` in the
 * file store (DATA_DIR or the bucket) with a random name. Refusals are media's PhotoRejected.
 * `broadcasts.image_path` holds the store's reference (the absolute path on DATA_DIR, the key on
 * a bucket).
 */
export const BROADCAST_IMAGE_DIR = 'broadcasts';
/** Telegram takes photos of up to 10 MB by upload; a bigger file could never be sent. */
export const MAX_BROADCAST_IMAGE_BYTES = 10 * 1024 * 1024;

const keyOfName = (name: string) => `${BROADCAST_IMAGE_DIR}/${name}`;

/** Stores the picture; returns its name (what the compose form sends back). */
export async function storeBroadcastImage(files: FileStore, bytes: Buffer): Promise<string> {
	const { selfie: jpeg } = await normalisePhoto(bytes);
	const name = `${randomBytes(12).toString('hex')}.jpg`;
	await files.put(keyOfName(name), jpeg);
	return name;
}

/** The stored picture's reference, or null when the name is not one of ours or the file is gone. */
export async function resolveBroadcastImage(files: FileStore, name: string): Promise<string | null> {
	if (!BROADCAST_IMAGE_NAME.test(name)) return null;
	return (await files.stat(keyOfName(name))) ? files.reference(keyOfName(name)) : null;
}

/** The key of a stored picture's reference; only files directly under `broadcasts/` count. */
function broadcastImageKey(files: FileStore, reference: string): string | null {
	const key = files.keyOf(reference);
	return key && /^broadcasts\/[^/]+$/.test(key) ? key : null;
}

/** A stored picture's bytes by its reference, or null when it is gone or not one of ours. */
export async function readBroadcastImage(files: FileStore, reference: string): Promise<Buffer | null> {
	const key = broadcastImageKey(files, reference);
	return key ? files.get(key) : null;
}

/** Removes a stored picture; only files inside `broadcasts/` are ever touched. */
export async function removeBroadcastImage(files: FileStore, reference: string | null): Promise<void> {
	if (!reference) return;
	const key = broadcastImageKey(files, reference);
	if (key) await files.delete(key);
}
