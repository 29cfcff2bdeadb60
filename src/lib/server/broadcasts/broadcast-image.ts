import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { normalisePhoto } from '../media/photo-normalise.ts';
import { BROADCAST_IMAGE_NAME } from '../../schemas/broadcast.schema.ts';

/**
 * A broadcast's picture, checked like every upload (real JPEG/PNG/WebP by its bytes, a pixel
 * limit before decoding, metadata dropped) and stored as a clean JPEG under DATA_DIR/broadcasts/
 * with a random name. Refusals are media's PhotoRejected.
 */
export const BROADCAST_IMAGE_DIR = 'broadcasts';
export const MAX_BROADCAST_IMAGE_BYTES = 10 * 1024 * 1024;

/** Stores the picture; returns its name (what the compose form sends back). */
export async function storeBroadcastImage(dataDir: string, bytes: Buffer): Promise<string> {
	const { selfie: jpeg } = await normalisePhoto(bytes);
	const dir = path.join(dataDir, BROADCAST_IMAGE_DIR);
	await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
	const name = `${randomBytes(12).toString('hex')}.jpg`;
	await fsp.writeFile(path.join(dir, name), jpeg, { mode: 0o600 });
	return name;
}

/** The stored picture's path, or null when the name is not one of ours or the file is gone. */
export async function resolveBroadcastImage(dataDir: string, name: string): Promise<string | null> {
	if (!BROADCAST_IMAGE_NAME.test(name)) return null;
	const file = path.join(dataDir, BROADCAST_IMAGE_DIR, name);
	const stat = await fsp.stat(file).catch(() => null);
	return stat?.isFile() ? file : null;
}

/** Removes a stored picture; only files inside DATA_DIR/broadcasts/ are ever touched. */
export async function removeBroadcastImage(dataDir: string, file: string | null): Promise<void> {
	if (!file) return;
	const dir = path.resolve(dataDir, BROADCAST_IMAGE_DIR);
	if (path.dirname(path.resolve(file)) !== dir) return;
	await fsp.rm(file, { force: true });
}
