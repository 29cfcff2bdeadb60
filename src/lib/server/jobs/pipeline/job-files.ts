import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where a job's files live: DATA_DIR/sessions/<token>/ and debug_sheets/, both swept by age (PHOTO_TTL_HOURS). */
export interface JobFiles {
	sessionDir: string;
	faceCrop: string;
	anchor: string;
	/** The guest's head drawn for composite stickers (stage `heads`). */
	head: string;
	stickersDir: string;
	sticker(n: number): string;
	debugDir: string;
	debug(name: string): string;
}

export function jobFiles(dataDir: string, jobId: number, sessionToken: string): JobFiles {
	const sessionDir = path.join(dataDir, 'sessions', sessionToken);
	const stickersDir = path.join(sessionDir, 'stickers');
	const debugDir = path.join(dataDir, 'debug_sheets');
	return {
		sessionDir,
		faceCrop: path.join(sessionDir, 'face_crop.jpg'),
		anchor: path.join(sessionDir, 'anchor.png'),
		head: path.join(sessionDir, 'head.png'),
		stickersDir,
		sticker: (n) => path.join(stickersDir, `sticker_${n}.png`),
		debugDir,
		debug: (name) => path.join(debugDir, `job${jobId}_${name}`)
	};
}

/** Writes to a temporary name and renames, so a crash never leaves half a file under the real name. */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true });
	// Unique per write: two writers of one file (a job claimed again while a frozen slot still runs) never share a temp name.
	const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
	await writeFile(temp, data);
	await rename(temp, file);
}

export function allExist(files: string[]): boolean {
	return files.every((f) => existsSync(f));
}
