import { chmodSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { openPostgresDatabase, type Db } from '../db/client.ts';
import { backupStamp } from '../db/sqlite-file.ts';
import { WORKER_STALE_AFTER_SECONDS } from '../health/health.ts';
import { prismaRunner, tableExists } from '../lifecycle/sql-runner.ts';
import { writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { backupTimeFromName, REQUIRED_TABLES } from './backup-files.ts';
import { LAST_RESTORE_KEY } from './backup-status.ts';
import { assertProductArchive, listArchive } from './create-pg-backup.ts';
import { applyErasuresWith, collectErasuresFrom, type ErasuresToReplay } from './erasure-replay.ts';
import { connectionFor, findPgTool, runTool, serverMajorVersion, type PgToolSearch, type ToolRunner } from './pg-tools.ts';
import { RestoreError, type RestoreResult } from './restore.ts';

export interface PgRestoreOptions {
	backupFile: string;
	url: string;
	clock: Clock;
	pseudonymKey: Buffer;
	/** Restore even though a worker's heartbeat is fresh (it keeps writing while the tables are replaced). */
	force?: boolean;
	/** Restore even when the current database's erasures cannot be read. */
	withoutReplay?: boolean;
	toolSearch?: PgToolSearch;
	run?: ToolRunner;
}

/**
 * Restores a pg_dump archive over the database of DATABASE_URL, in steps that each stop on failure
 * with the live database untouched: refuse while a worker is alive → pg_restore --list must read
 * the archive and find the product's tables → read the erasures recorded since the backup was
 * taken → dump the current database next to the backup (before-restore-<ts>.pgdump) → pg_restore
 * --clean --if-exists in one transaction → re-apply the erasures and note the restore in one
 * transaction.
 */
export async function restorePgBackup(options: PgRestoreOptions): Promise<RestoreResult> {
	if (!existsSync(options.backupFile)) throw new RestoreError(`no backup at ${options.backupFile}`);
	const run = options.run ?? runTool;
	const major = await serverMajorVersion(options.url);
	const pgRestore = await findPgTool('pg_restore', major, options.toolSearch, run);
	const pgDump = await findPgTool('pg_dump', major, options.toolSearch, run);
	await verifyArchive(pgRestore, options.backupFile, run);
	const backupTakenAt = backupTimeFromName(path.basename(options.backupFile)) ?? statSync(options.backupFile).mtime.toISOString();
	const current = openPostgresDatabase(options.url);
	let erasures: ErasuresToReplay | null;
	let hasProductTables: boolean;
	try {
		await assertNoWorkerAlive(current, options.clock, options.force ?? false);
		hasProductTables = await tableExists(prismaRunner(current), 'audit_log');
		erasures = hasProductTables ? await collectOrExplain(current, backupTakenAt, options) : null;
	} finally {
		await current.$disconnect();
	}
	const { args, env } = connectionFor(options.url);
	const keptAside = hasProductTables ? path.join(path.dirname(options.backupFile), `before-restore-${backupStamp(options.clock)}.pgdump`) : null;
	if (keptAside) {
		await run(pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${keptAside}`, ...args], env);
		chmodSync(keptAside, 0o600);
	}
	await run(pgRestore, ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', ...args, options.backupFile], env);
	// A new client: the old one's cached statements describe the tables that were just replaced.
	const restored = openPostgresDatabase(options.url);
	try {
		const reapplied = await finishRestore(restored, erasures, backupTakenAt, options);
		return { backupTakenAt, keptAside, reapplied, counts: await countProductRows(restored) };
	} finally {
		await restored.$disconnect();
	}
}

async function verifyArchive(pgRestore: string, file: string, run: ToolRunner): Promise<void> {
	try {
		assertProductArchive(await listArchive(pgRestore, file, run));
	} catch (error) {
		throw new RestoreError(`the backup is not usable: ${(error as Error).message}; nothing was changed`);
	}
}

/**
 * Every worker holds database connections and writes jobs, logs and heartbeats; a restore under
 * it would mix its writes into the restored tables. A worker is alive while its heartbeat in
 * worker_processes is fresh and it has not recorded a stop.
 */
async function assertNoWorkerAlive(db: Db, clock: Clock, force: boolean): Promise<void> {
	if (force || !(await tableExists(prismaRunner(db), 'worker_processes'))) return;
	const freshSince = new Date(clock.now().getTime() - WORKER_STALE_AFTER_SECONDS * 1000).toISOString();
	const alive = await db.workerProcess.findMany({ where: { stoppedAt: null, heartbeatAt: { gte: freshSince } }, orderBy: { startedAt: 'asc' } });
	if (alive.length === 0) return;
	const names = alive.map((w) => `${w.hostname} pid ${w.pid} (heartbeat ${w.heartbeatAt})`).join(', ');
	throw new RestoreError(`${alive.length} worker(s) still running: ${names}. Stop every worker and web process first (systemctl stop sticker-bot sticker-api on each machine), or pass --force`);
}

async function collectOrExplain(db: Db, since: string, options: PgRestoreOptions): Promise<ErasuresToReplay | null> {
	try {
		return await collectErasuresFrom(prismaRunner(db), since, options.pseudonymKey);
	} catch (error) {
		if (options.withoutReplay) return null;
		throw new RestoreError(`cannot read the current database's erasures (${(error as Error).message}). Nothing was changed. To restore anyway (erasures made after the backup would come back), pass --without-replay`);
	}
}

async function finishRestore(db: Db, erasures: ErasuresToReplay | null, backupTakenAt: string, options: PgRestoreOptions): Promise<RestoreResult['reapplied']> {
	return db.$transaction(async (tx) => {
		const reapplied = erasures ? await applyErasuresWith(prismaRunner(tx), erasures, options.pseudonymKey) : null;
		const note = { at: options.clock.now().toISOString(), from: path.basename(options.backupFile), backupTakenAt, reapplied };
		await writeSetting(tx, options.clock, LAST_RESTORE_KEY, JSON.stringify(note));
		return reapplied;
	});
}

async function countProductRows(db: Db): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const table of REQUIRED_TABLES) {
		const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`);
		counts[table] = Number(rows[0]?.n ?? 0);
	}
	return counts;
}
