import { chmodSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { backupStamp } from '../db/sqlite-file.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { BACKUPS_KEPT, newBackupPath, prepareBackupDir, pruneBackups, REQUIRED_TABLES } from './backup-files.ts';
import type { BackupResult } from './create-backup.ts';
import {
	connectionFor,
	findPgTool,
	runTool,
	serverMajorVersion,
	type PgToolSearch,
	type ToolRunner
} from './pg-tools.ts';

export interface PgBackupOptions {
	url: string;
	backupDir: string;
	clock: Clock;
	logger: Logger;
	keep?: number;
	/** Where pg_dump and pg_restore are looked for (tests point it elsewhere). */
	toolSearch?: PgToolSearch;
	run?: ToolRunner;
}

/**
 * One backup of the PostgreSQL database: pg_dump in its custom format (compressed, restorable
 * table by table) from one consistent snapshot while the processes keep writing → pg_restore
 * --list reads the archive back and it must hold the product's tables → mode 600 in a 700
 * directory → keep the newest 14. A failure leaves no partial file behind. The backup's time is
 * in its name (taken just before the snapshot), which is what the restore replays erasures from.
 */
export async function createPgBackup(options: PgBackupOptions): Promise<BackupResult> {
	const run = options.run ?? runTool;
	const takenAt = options.clock.now().toISOString();
	const major = await serverMajorVersion(options.url);
	const pgDump = await findPgTool('pg_dump', major, options.toolSearch, run);
	const pgRestore = await findPgTool('pg_restore', major, options.toolSearch, run);
	prepareBackupDir(options.backupDir);
	const target = newBackupPath(options.backupDir, backupStamp(options.clock), 'pgdump');
	const partial = `${target}.partial`;
	const { args, env } = connectionFor(options.url);
	try {
		await run(
			pgDump,
			['--format=custom', '--compress=9', '--no-owner', '--no-privileges', `--file=${partial}`, ...args],
			env
		);
		chmodSync(partial, 0o600);
		assertProductArchive(await listArchive(pgRestore, partial, run));
		renameSync(partial, target);
	} finally {
		rmSync(partial, { force: true });
	}
	const removed = pruneBackups(options.backupDir, options.keep ?? BACKUPS_KEPT);
	const result = { file: target, bytes: statSync(target).size, takenAt, removed };
	options.logger.info(
		{ file: path.basename(target), bytes: result.bytes, removed },
		'database backup written (pg_dump)'
	);
	return result;
}

/** The archive's table of contents; pg_restore fails on a file that is not a readable archive. */
export async function listArchive(pgRestore: string, file: string, run: ToolRunner = runTool): Promise<string> {
	const { stdout } = await run(pgRestore, ['--list', file], { PATH: process.env.PATH ?? '' });
	return stdout;
}

export function assertProductArchive(toc: string): void {
	const tables = new Set([...toc.matchAll(/^\d+;\s+\d+\s+\d+\s+TABLE\s+\S+\s+(\S+)/gm)].map((m) => m[1]));
	const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
	if (missing.length > 0)
		throw new Error(`the archive is not a database of this product (missing ${missing.join(', ')})`);
}
