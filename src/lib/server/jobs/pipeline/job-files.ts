import path from 'node:path';
import { exists, type FileStore } from '../../files/file-store.ts';

/**
 * A job's files: `sessions/<token>/` and `debug_sheets/job<id>_…`, both swept by age
 * (PHOTO_TTL_HOURS). The fields name them; `keys` are their names in the FileStore.
 */
interface JobFileNames {
	sessionDir: string;
	faceCrop: string;
	anchor: string;
	/** The guest's head drawn for composite stickers (stage `heads`). */
	head: string;
	stickersDir: string;
	sticker(n: number): string;
	/** The animated version of sticker n (a VP9 WEBM video sticker), when it moves. */
	video(n: number): string;
	debugDir: string;
	debug(name: string): string;
}

export type JobFileKeys = JobFileNames;

/** The same files as paths under a local DATA_DIR (for a look at the folder), with their store keys. */
export interface JobFiles extends JobFileNames {
	keys: JobFileKeys;
}

export function jobFileKeys(jobId: number, sessionToken: string): JobFileKeys {
	return namesUnder((...parts) => parts.join('/'), jobId, sessionToken);
}

export function jobFiles(dataDir: string, jobId: number, sessionToken: string): JobFiles {
	return {
		...namesUnder((...parts) => path.join(dataDir, ...parts), jobId, sessionToken),
		keys: jobFileKeys(jobId, sessionToken)
	};
}

function namesUnder(join: (...parts: string[]) => string, jobId: number, sessionToken: string): JobFileNames {
	const sessionDir = join('sessions', sessionToken);
	const stickersDir = join('sessions', sessionToken, 'stickers');
	return {
		sessionDir,
		faceCrop: join('sessions', sessionToken, 'face_crop.jpg'),
		anchor: join('sessions', sessionToken, 'anchor.png'),
		head: join('sessions', sessionToken, 'head.png'),
		stickersDir,
		sticker: (n) => join('sessions', sessionToken, 'stickers', `sticker_${n}.png`),
		video: (n) => join('sessions', sessionToken, 'stickers', `sticker_${n}.webm`),
		debugDir: join('debug_sheets'),
		debug: (name) => join('debug_sheets', `job${jobId}_${name}`)
	};
}

export async function allStored(store: FileStore, keys: string[]): Promise<boolean> {
	for (const key of keys) if (!(await exists(store, key))) return false;
	return true;
}

/** A stored file that must be there (a sticker drawn by an earlier stage). */
export async function readStored(store: FileStore, key: string): Promise<Buffer> {
	const bytes = await store.get(key);
	if (!bytes) throw new Error(`${key} is missing from the file store`);
	return bytes;
}
