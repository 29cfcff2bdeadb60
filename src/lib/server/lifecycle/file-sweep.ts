import type { FileStore, StoredFile } from '../files/file-store.ts';
import type { Logger } from '../log/logger.ts';
import { HOUR, type Clock } from '../time/clock.ts';

/** The hourly sweep's own interval: the cutoff is moved forward by it so no file outlives the TTL. */
export const SWEEP_INTERVAL_MS = HOUR;
/** Folders of the file store that hold photos and drawings of guests. */
export const SWEPT_FOLDERS = ['sessions', 'debug_sheets'] as const;

export interface SweepDeps {
	/** The process's one store: DATA_DIR or the bucket, the sweep is the same. */
	fileStore: FileStore;
	ttlHours: number;
	clock: Clock;
	logger: Logger;
}

export interface SweepResult {
	deletedFiles: number;
	removedDirs: number;
	failures: number;
}

/**
 * Age at which a file goes: PHOTO_TTL_HOURS minus the sweep interval, never below half an hour.
 * With a pass every hour, a file is therefore gone no later than the TTL itself.
 */
export function sweepCutoffMs(ttlHours: number): number {
	return Math.max(ttlHours * HOUR - SWEEP_INTERVAL_MS, HOUR / 2);
}

/**
 * The one TTL sweep, through the FileStore: every file under `sessions/` and `debug_sheets/` whose
 * own modified time (a file's mtime, an object's LastModified) is older than the cutoff is deleted
 * — by each file's own age, so a new file in an old session folder does not keep the old selfie
 * alive. Then the store tidies the folders left empty (DATA_DIR has folders, a bucket has none).
 * A failure is logged and counted; the pass goes on and the next pass tries again.
 */
export async function sweepExpiredFiles(deps: SweepDeps): Promise<SweepResult> {
	const olderThan = new Date(deps.clock.now().getTime() - sweepCutoffMs(deps.ttlHours));
	const result: SweepResult = { deletedFiles: 0, removedDirs: 0, failures: 0 };
	for (const folder of SWEPT_FOLDERS) {
		const emptied = await deleteExpired(deps, folder, olderThan, result);
		if (emptied === null) continue;
		try {
			result.removedDirs += await deps.fileStore.removeEmptyFolders(folder, { olderThan, emptied });
		} catch (error) {
			result.failures++;
			deps.logger.warn(
				{ prefix: folder, err: error },
				'could not remove the empty folders of the file store; will retry next pass'
			);
		}
	}
	return result;
}

/** Deletes the folder's expired files; returns their keys, or null when the folder could not be listed. */
async function deleteExpired(
	deps: SweepDeps,
	folder: string,
	olderThan: Date,
	result: SweepResult
): Promise<string[] | null> {
	let files: StoredFile[];
	try {
		files = await deps.fileStore.list(`${folder}/`);
	} catch (error) {
		result.failures++;
		deps.logger.warn({ prefix: folder, err: error }, 'could not list a folder of the file store; will retry next pass');
		return null;
	}
	const deleted: string[] = [];
	for (const file of files) {
		if (file.modifiedAt.getTime() > olderThan.getTime()) continue;
		try {
			await deps.fileStore.delete(file.key);
			deleted.push(file.key);
			result.deletedFiles++;
		} catch (error) {
			result.failures++;
			deps.logger.warn({ path: file.key, err: error }, 'could not delete an expired file; will retry next pass');
		}
	}
	return deleted;
}
