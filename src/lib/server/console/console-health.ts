import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { readBackupFailureSince, type BackupFailureView } from '../backup/backup-failure.ts';
import { LAST_SWEEP_KEY, readLastBackup } from '../backup/backup-status.ts';
import type { DatabaseTarget } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { readDatabaseHealth, type DatabaseHealth } from '../health/database-health.ts';
import { readHealthDetails, type HealthDetails } from '../health/health.ts';
import { PROCESS_VIEW_FIELDS, processView, type ProcessKind, type ProcessView } from '../workers/worker-registry.ts';
import { readSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { readProvidersView, type ProvidersView } from './provider-health.ts';
import { readBotUsername } from '../guests/bot-identity.ts';
import { readBotTokenRefusal } from '../settings/bot-token-refusal.ts';

/**
 * The Health page: the service's state (what public /health reduces to a status word: the pause
 * and its reason, the worker's heartbeat, the image provider), storage, housekeeping and versions.
 * Last sweep and last backup are settings the lifecycle tasks write (`last_sweep_at`,
 * `last_backup`, `last_backup_failure`); until they do, the page says so. The database part depends on the engine
 * (health/database-health.ts); on PostgreSQL the web processes are listed next to the workers.
 */
export interface ConsoleHealth {
	at: string;
	service: HealthDetails & { provider: string };
	db: DatabaseHealth;
	/** The disk DATA_DIR is on (its path stays on the server: the page says what the disk keeps). */
	disk: { freeBytes: number | null; totalBytes: number | null };
	/** When the TTL sweep last ran; null until it has. */
	lastSweep: string | null;
	/** The last good daily backup: when, its file's name (not the server's path) and size; null until one. */
	lastBackup: { at: string; fileName: string; bytes: number } | null;
	/** The last failed backup when newer than the last good one: when, and its cause (never the raw error). */
	lastBackupFailure: BackupFailureView | null;
	workers: ProcessView[];
	/** Registered on PostgreSQL only (worker-registry.ts says why); always empty on SQLite. */
	webProcesses: ProcessView[];
	versions: { app: string; node: string };
	/** Provider health and the queue's pause in detail (source, since, until). */
	providers: ProvidersView;
	/** The bot the worker runs (its published @username) and Telegram's refusal of a token saved on the console. */
	bot: { username: string | null; tokenRefusal: { at: string; sentence: string } | null };
}

export interface ConsoleHealthDeps {
	db: Db;
	clock: Clock;
	database: DatabaseTarget;
	backupDir: string;
	dataDir: string;
	version: string;
	provider: string;
}

export async function readConsoleHealth(deps: ConsoleHealthDeps): Promise<ConsoleHealth> {
	const now = deps.clock.now();
	const [service, db, disk, lastSweep, backups, workers, webProcesses, providers, bot] = await Promise.all([
		readHealthDetails(deps),
		readDatabaseHealth(deps),
		diskSpace(deps.dataDir),
		readSetting(deps.db, LAST_SWEEP_KEY),
		readBackups(deps.db),
		readProcesses(deps.db, 'worker', now),
		readProcesses(deps.db, 'web', now),
		readProvidersView(deps.db, deps.clock),
		readBotView(deps.db)
	]);
	return {
		at: now.toISOString(),
		service: { ...service, provider: deps.provider },
		db,
		disk,
		lastSweep,
		...backups,
		workers,
		webProcesses,
		versions: { app: deps.version, node: process.version },
		providers,
		bot
	};
}

async function readBackups(db: Db): Promise<Pick<ConsoleHealth, 'lastBackup' | 'lastBackupFailure'>> {
	const last = await readLastBackup(db);
	return {
		lastBackup: last && { at: last.at, fileName: path.basename(last.file), bytes: last.bytes },
		lastBackupFailure: await readBackupFailureSince(db, last)
	};
}

async function readBotView(db: Db): Promise<ConsoleHealth['bot']> {
	const [username, refusal] = await Promise.all([readBotUsername(db), readBotTokenRefusal(db)]);
	return { username, tokenRefusal: refusal && { at: refusal.at, sentence: refusal.sentence } };
}

/** The ten launches of one kind that beat last. */
async function readProcesses(db: Db, kind: ProcessKind, now: Date): Promise<ProcessView[]> {
	const rows = await db.workerProcess.findMany({
		where: { kind },
		orderBy: { heartbeatAt: 'desc' },
		take: 10,
		select: PROCESS_VIEW_FIELDS
	});
	return rows.map((row) => processView(row, now));
}

async function diskSpace(dir: string): Promise<{ freeBytes: number | null; totalBytes: number | null }> {
	try {
		const stats = await fsp.statfs(dir);
		return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
	} catch {
		return { freeBytes: null, totalBytes: null };
	}
}
