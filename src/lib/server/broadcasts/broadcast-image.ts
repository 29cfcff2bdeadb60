import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { normalisePhoto } from '../media/photo-normalise.ts';

/**
 * A broadcast's picture, checked like every upload (real JPEG/PNG/WebP by its bytes, a pixel
 * limit before decoding, metadata dropped) and stored as a clean JPEG under DATA_DIR/broadcasts/
 * with a random name. Refusals are media's PhotoRejected.
 */
export const BROADCAST_IMAGE_DIR = 'broadcasts';
export const MAX_BROADCAST_IMAGE_BYTES = 10 * 1024 * 1024;

export async function storeBroadcastImage(dataDir: string, bytes: Buffer): Promise<string> {
	const { selfie: jpeg } = await normalisePhoto(bytes);
	const dir = path.join(dataDir, BROADCAST_IMAGE_DIR);
	await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
	const file = path.join(dir, `${randomBytes(12).toString('hex')}.jpg`);
	await fsp.writeFile(file, jpeg, { mode: 0o600 });
	return file;
}

/** Removes a stored picture; only files inside DATA_DIR/broadcasts/ are ever touched. */
export async function removeBroadcastImage(dataDir: string, file: string | null): Promise<void> {
	if (!file) return;
	const dir = path.resolve(dataDir, BROADCAST_IMAGE_DIR);
	if (path.dirname(path.resolve(file)) !== dir) return;
	await fsp.rm(file, { force: true });
}
