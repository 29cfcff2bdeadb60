import { chmodSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { openPostgresDatabase, type Db } from '../db/client.ts';
import { backupStamp } from '../db/sqlite-file.ts';
import { prismaRunner, tableExists } from '../lifecycle/sql-runner.ts';
import type { Clock } from '../time/clock.ts';
import { backupTimeFromName, REQUIRED_TABLES } from './backup-files.ts';
import { assertProductArchive, listArchive } from './create-pg-backup.ts';
import type { ErasuresToReplay } from './erasure-replay.ts';
import { assertNoProcessAlive, collectPgErasures, replayIntoRestored } from './pg-erasure-replay.ts';
import {
	connectionFor,
	findPgTool,
	runTool,
	serverMajorVersion,
	type PgToolSearch,
	type ToolRunner
} from './pg-tools.ts';
import { RestoreError, type RestoreResult } from './restore.ts';

export interface PgRestoreOptions {
	backupFile: string;
	url: string;
	clock: Clock;
	pseudonymKey: Buffer;
	/** Restore even though a worker's or web process's heartbeat is fresh (it keeps writing while the tables are replaced). */
	force?: boolean;
	/** Restore even when the current database's erasures cannot be read. */
	withoutReplay?: boolean;
	toolSearch?: PgToolSearch;
	run?: ToolRunner;
}

/**
 * Restores a pg_dump archive over the database of DATABASE_URL, in steps that each stop on failure
 * with the live database untouched: refuse while a worker or web process is alive → pg_restore --list must read
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
	const backupTakenAt =
		backupTimeFromName(path.basename(options.backupFile)) ?? statSync(options.backupFile).mtime.toISOString();
	const current = openPostgresDatabase(options.url);
	let erasures: ErasuresToReplay | null;
	let hasProductTables: boolean;
	try {
		await assertNoProcessAlive(current, options.clock, options.force ?? false);
		hasProductTables = await tableExists(prismaRunner(current), 'audit_log');
		erasures = await collectPgErasures(current, backupTakenAt, options.pseudonymKey, options.withoutReplay ?? false);
	} finally {
		await current.$disconnect();
	}
	const keptAside = hasProductTables ? await dumpCurrentAside(pgDump, options, run) : null;
	const { args, env } = connectionFor(options.url);
	await run(
		pgRestore,
		[
			'--clean',
			'--if-exists',
			'--no-owner',
			'--no-privileges',
			'--single-transaction',
			'--exit-on-error',
			...args,
			options.backupFile
		],
		env
	);
	// A new client: the old one's cached statements describe the tables that were just replaced.
	const restored = openPostgresDatabase(options.url);
	try {
		const note = { from: path.basename(options.backupFile), backupTakenAt };
		const reapplied = await replayIntoRestored(restored, erasures, note, options.clock, options.pseudonymKey);
		return { backupTakenAt, keptAside, reapplied, counts: await countProductRows(restored) };
	} finally {
		await restored.$disconnect();
	}
}

/** The database about to be replaced, as before-restore-<ts>.pgdump next to the backup. */
async function dumpCurrentAside(pgDump: string, options: PgRestoreOptions, run: ToolRunner): Promise<string> {
	const aside = path.join(path.dirname(options.backupFile), `before-restore-${backupStamp(options.clock)}.pgdump`);
	const { args, env } = connectionFor(options.url);
	await run(pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${aside}`, ...args], env);
	chmodSync(aside, 0o600);
	return aside;
}

async function verifyArchive(pgRestore: string, file: string, run: ToolRunner): Promise<void> {
	try {
		assertProductArchive(await listArchive(pgRestore, file, run));
	} catch (error) {
		throw new RestoreError(`the backup is not usable: ${(error as Error).message}; nothing was changed`);
	}
}

async function countProductRows(db: Db): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const table of REQUIRED_TABLES) {
		const rows = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`);
		counts[table] = Number(rows[0]?.n ?? 0);
	}
	return counts;
}
