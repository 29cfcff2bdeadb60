import { promises as fsp, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import type { FileStore, StoredFile } from '../files/file-store.ts';
import type { Logger } from '../log/logger.ts';
import { HOUR, type Clock } from '../time/clock.ts';

/** The hourly sweep's own interval: the cutoff is moved forward by it so no file outlives the TTL. */
export const SWEEP_INTERVAL_MS = HOUR;
/** Folders under DATA_DIR that hold photos and drawings of guests. */
export const SWEPT_FOLDERS = ['sessions', 'debug_sheets'] as const;

/** The file operations the sweep uses; tests pass a wrapper that fails where they want. */
export interface SweepFs {
	readdir(dir: string): Promise<Dirent[]>;
	lstat(file: string): Promise<Stats>;
	unlink(file: string): Promise<void>;
	rmdir(dir: string): Promise<void>;
}

export const realSweepFs: SweepFs = {
	readdir: (dir) => fsp.readdir(dir, { withFileTypes: true }),
	lstat: (file) => fsp.lstat(file),
	unlink: (file) => fsp.unlink(file),
	rmdir: (dir) => fsp.rmdir(dir)
};

export interface SweepDeps {
	dataDir: string;
	ttlHours: number;
	clock: Clock;
	logger: Logger;
	fs?: SweepFs;
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
 * Deletes every file under DATA_DIR/sessions and DATA_DIR/debug_sheets older than the cutoff, by
 * each file's own mtime (a new file in an old session folder must not keep the old selfie alive),
 * then removes directories left empty, bottom-up. A failure is logged and counted; the pass goes
 * on and the next pass tries again.
 */
export async function sweepExpiredFiles(deps: SweepDeps): Promise<SweepResult> {
	const pass: Pass = { deps, fs: deps.fs ?? realSweepFs, olderThan: deps.clock.now().getTime() - sweepCutoffMs(deps.ttlHours) };
	const result: SweepResult = { deletedFiles: 0, removedDirs: 0, failures: 0 };
	for (const folder of SWEPT_FOLDERS) await sweepDirectory(pass, path.join(deps.dataDir, folder), result, true);
	return result;
}

interface Pass {
	deps: SweepDeps;
	fs: SweepFs;
	olderThan: number;
}

/** Returns true when the directory is empty after the pass. */
async function sweepDirectory(pass: Pass, dir: string, result: SweepResult, isRoot: boolean): Promise<boolean> {
	let entries: Dirent[];
	try {
		entries = await pass.fs.readdir(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
		return reportFailure(pass, result, dir, 'could not list a folder', error);
	}
	let left = entries.length;
	let deletedHere = false;
	for (const entry of entries) {
		const full = path.join(dir, entry.name);
		const gone = entry.isDirectory() ? await sweepDirectory(pass, full, result, false) : await deleteIfExpired(pass, full, result);
		if (gone) left--;
		deletedHere ||= gone;
	}
	if (isRoot || left > 0) return false;
	return removeEmptyDirectory(pass, dir, result, deletedHere);
}

async function deleteIfExpired(pass: Pass, file: string, result: SweepResult): Promise<boolean> {
	try {
		const stat = await pass.fs.lstat(file);
		if (stat.mtimeMs > pass.olderThan) return false;
		await pass.fs.unlink(file);
		result.deletedFiles++;
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true; // deleted by someone else meanwhile
		return reportFailure(pass, result, file, 'could not delete an expired file; will retry next pass', error);
	}
}

/**
 * An empty folder goes if this pass emptied it or it has itself been untouched for the cutoff: a
 * folder just made for an upload (and not yet written to) is left alone.
 */
async function removeEmptyDirectory(pass: Pass, dir: string, result: SweepResult, emptiedNow: boolean): Promise<boolean> {
	try {
		if (!emptiedNow && (await pass.fs.lstat(dir)).mtimeMs > pass.olderThan) return false;
		await pass.fs.rmdir(dir);
		result.removedDirs++;
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return true;
		if (code === 'ENOTEMPTY' || code === 'EEXIST') return false; // a file arrived meanwhile
		return reportFailure(pass, result, dir, 'could not remove an empty folder; will retry next pass', error);
	}
}

export interface ObjectSweepDeps {
	fileStore: FileStore;
	ttlHours: number;
	clock: Clock;
	logger: Logger;
}

/**
 * The same rule on any FileStore, for a bucket: every file under `sessions/` and `debug_sheets/`
 * whose own modified time (an object's LastModified) is older than the cutoff is deleted. A bucket
 * has no folders, so there is nothing to tidy after. A failed delete is logged and counted.
 */
export async function sweepExpiredObjects(deps: ObjectSweepDeps): Promise<SweepResult> {
	const olderThan = deps.clock.now().getTime() - sweepCutoffMs(deps.ttlHours);
	const result: SweepResult = { deletedFiles: 0, removedDirs: 0, failures: 0 };
	for (const folder of SWEPT_FOLDERS) {
		let files: StoredFile[];
		try {
			files = await deps.fileStore.list(`${folder}/`);
		} catch (error) {
			result.failures++;
			deps.logger.warn({ prefix: folder, err: error }, 'could not list a folder of the file store; will retry next pass');
			continue;
		}
		for (const file of files) {
			if (file.modifiedAt.getTime() > olderThan) continue;
			try {
				await deps.fileStore.delete(file.key);
				result.deletedFiles++;
			} catch (error) {
				result.failures++;
				deps.logger.warn({ path: file.key, err: error }, 'could not delete an expired file; will retry next pass');
			}
		}
	}
	return result;
}

function reportFailure(pass: Pass, result: SweepResult, target: string, message: string, error: unknown): false {
	result.failures++;
	pass.deps.logger.warn({ path: path.relative(pass.deps.dataDir, target), code: (error as NodeJS.ErrnoException).code, err: error }, message);
	return false;
}
