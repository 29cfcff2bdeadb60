import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * One worker and one web process per DATA_DIR. Two workers would both poll Telegram (409
 * Conflict) and double the queue's slots; and while either process runs, a restore must not swap
 * the database under it (its writes would go to the replaced file and be lost). Each process holds
 * its own lock file, created atomically (link(2) fails if it exists) and holding its pid: the
 * worker `main.lock`, the web process `web.lock`. Next to it, `main.pid` / `web.pid` carry the
 * same pid for people and scripts. A lock whose process is gone is stale and taken over.
 */
export class InstanceLockError extends Error {
	override name = 'InstanceLockError';
}

export type LockOwner = 'worker' | 'web';

const FILES: Record<LockOwner, { lock: string; pid: string; who: string }> = {
	worker: { lock: 'main.lock', pid: 'main.pid', who: 'another worker' },
	web: { lock: 'web.lock', pid: 'web.pid', who: 'another web process' }
};

export interface InstanceLock {
	lockPath: string;
	/**
	 * The pid of the earlier process whose stale lock this start took over (it is gone: crash,
	 * kill -9, reboot), or null. The worker releases that launch's send-budget places with it.
	 */
	takenOverFrom: number | null;
	release(): void;
}

export function instanceLockPath(dataDir: string, owner: LockOwner = 'worker'): string {
	return path.join(dataDir, FILES[owner].lock);
}

/** The pid of a live process holding `owner`'s lock of `dataDir`, or null (no lock, or a stale one). */
export function liveLockHolder(dataDir: string, owner: LockOwner = 'worker'): number | null {
	const holder = readHolder(instanceLockPath(dataDir, owner));
	return holder !== null && isAlive(holder) ? holder : null;
}

export function acquireInstanceLock(dataDir: string, owner: LockOwner = 'worker', pid = process.pid): InstanceLock {
	mkdirSync(dataDir, { recursive: true });
	const lockPath = instanceLockPath(dataDir, owner);
	const pidPath = path.join(dataDir, FILES[owner].pid);
	let takenOverFrom: number | null = null;
	if (!tryCreateLock(lockPath, pid)) {
		const holder = readHolder(lockPath);
		if (holder !== null && holder !== pid && isAlive(holder)) {
			throw new InstanceLockError(
				`${FILES[owner].who} (pid ${holder}) is already running with ${lockPath}; stop it first`
			);
		}
		// The holder is gone (crash, kill -9, reboot): take the stale lock over.
		rmSync(lockPath, { force: true });
		if (!tryCreateLock(lockPath, pid))
			throw new InstanceLockError(`${FILES[owner].who} took ${lockPath} at the same moment`);
		takenOverFrom = holder !== pid ? holder : null;
	}
	writeFileSync(pidPath, `${pid}\n`);
	return {
		lockPath,
		takenOverFrom,
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
