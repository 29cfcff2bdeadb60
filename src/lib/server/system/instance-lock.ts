import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One worker per DATA_DIR: two workers would both poll Telegram (409 Conflict) and double the
 * queue's slots. The lock is `main.lock` created atomically (link(2) fails if it exists) holding
 * our pid; `main.pid` is the same pid for people and scripts (seed 002 file layout).
 */
export class InstanceLockError extends Error {
	override name = 'InstanceLockError';
}

export interface InstanceLock {
	lockPath: string;
	release(): void;
}

export function instanceLockPath(dataDir: string): string {
	return path.join(dataDir, 'main.lock');
}

/** The pid of a live worker holding the lock of `dataDir`, or null (no lock, or a stale one). */
export function liveLockHolder(dataDir: string): number | null {
	const holder = readHolder(instanceLockPath(dataDir));
	return holder !== null && isAlive(holder) ? holder : null;
}

export function acquireInstanceLock(dataDir: string, pid = process.pid): InstanceLock {
	mkdirSync(dataDir, { recursive: true });
	const lockPath = instanceLockPath(dataDir);
	const pidPath = path.join(dataDir, 'main.pid');
	if (!tryCreateLock(lockPath, pid)) {
		const holder = readHolder(lockPath);
		if (holder !== null && holder !== pid && isAlive(holder)) {
			throw new InstanceLockError(`another worker (pid ${holder}) is already running with ${lockPath}; stop it first`);
		}
		// The holder is gone (crash, kill -9, reboot): take the stale lock over.
		rmSync(lockPath, { force: true });
		if (!tryCreateLock(lockPath, pid)) throw new InstanceLockError(`another worker took ${lockPath} at the same moment`);
	}
	writeFileSync(pidPath, `${pid}\n`);
	return {
		lockPath,
		release() {
			if (readHolder(lockPath) === pid) rmSync(lockPath, { force: true });
			rmSync(pidPath, { force: true });
		}
	};
}

function tryCreateLock(lockPath: string, pid: number): boolean {
	const temp = `${lockPath}.${pid}.tmp`;
	const fd = openSync(temp, 'w', 0o644);
	writeSync(fd, `${pid}\n`);
	closeSync(fd);
	try {
		linkSync(temp, lockPath);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	} finally {
		rmSync(temp, { force: true });
	}
}

function readHolder(lockPath: string): number | null {
	try {
		const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
		return Number.isInteger(pid) && pid > 0 ? pid : null;
	} catch {
		return null;
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to someone else — still alive.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}
