import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { dialectOf } from '../db/dialect/dialect.ts';
import { readHealthDetails, type HealthDetails } from '../health/health.ts';
import { WORKER_STALE_AFTER_SECONDS } from '../workers/worker-registry.ts';
import { readSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { readProvidersView, type ProvidersView } from './provider-health.ts';

/**
 * The Health page: the service's state (what public /health reduces to a status word: the pause
 * and its reason, the worker's heartbeat, the image provider), storage, housekeeping and versions.
 * Last sweep and last backup are settings the lifecycle tasks write (`last_sweep_at`,
 * `last_backup`); until they do, the page says so.
 */
export interface ConsoleHealth {
	at: string;
	service: HealthDetails & { provider: string };
	db: { path: string; bytes: number | null; walBytes: number | null; engine: string; engineVersion: string | null; integrity: 'not checked here' };
	disk: { freeBytes: number | null; totalBytes: number | null; dataDir: string };
	lastSweep: unknown;
	lastBackup: unknown;
	resetBackups: { count: number; newest: string | null };
	workers: { id: string; hostname: string; pid: number; version: string; slots: number; busySlots: number; startedAt: string; heartbeatAt: string; alive: boolean }[];
	versions: { app: string; node: string };
	/** Provider health and the queue's pause in detail (source, since, until). */
	providers: ProvidersView;
}

export interface ConsoleHealthDeps {
	db: Db;
	clock: Clock;
	dbPath: string;
	dataDir: string;
	version: string;
	provider: string;
}

export async function readConsoleHealth(deps: ConsoleHealthDeps): Promise<ConsoleHealth> {
	const now = deps.clock.now();
	const [service, bytes, walBytes, disk, engineVersion, lastSweep, lastBackup, resetBackups, workerRows, providers] = await Promise.all([
		readHealthDetails(deps),
		fileSize(deps.dbPath),
		fileSize(`${deps.dbPath}-wal`),
		diskSpace(deps.dataDir),
		readEngineVersion(deps.db),
		readSetting(deps.db, 'last_sweep_at').then(parseMaybeJson),
		readSetting(deps.db, 'last_backup').then(parseMaybeJson),
		listBakFiles(deps.dbPath),
		deps.db.workerProcess.findMany({ orderBy: { heartbeatAt: 'desc' }, take: 10 }),
		readProvidersView(deps.db, deps.clock)
	]);
	return {
		at: now.toISOString(),
		service: { ...service, provider: deps.provider },
		db: { path: deps.dbPath, bytes, walBytes, engine: dialectOf(deps.db).engine, engineVersion, integrity: 'not checked here' },
		disk: { ...disk, dataDir: deps.dataDir },
		lastSweep,
		lastBackup,
		resetBackups,
		workers: workerRows.map((w) => ({
			id: w.id,
			hostname: w.hostname,
			pid: w.pid,
			version: w.version,
			slots: w.slots,
			busySlots: w.busySlots,
			startedAt: w.startedAt,
			heartbeatAt: w.heartbeatAt,
			alive: w.stoppedAt === null && now.getTime() - Date.parse(w.heartbeatAt) <= WORKER_STALE_AFTER_SECONDS * 1000
		})),
		versions: { app: deps.version, node: process.version },
		providers
	};
}

async function fileSize(file: string): Promise<number | null> {
	return (await fsp.stat(file).catch(() => null))?.size ?? null;
}

async function diskSpace(dir: string): Promise<{ freeBytes: number | null; totalBytes: number | null }> {
	try {
		const stats = await fsp.statfs(dir);
		return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
	} catch {
		return { freeBytes: null, totalBytes: null };
	}
}

async function readEngineVersion(db: Db): Promise<string | null> {
	const rows = await db.$queryRawUnsafe<{ v: string }[]>(dialectOf(db).versionSql).catch(() => []);
	return rows[0]?.v ?? null;
}

/** `app.db.bak-*` copies next to the database (migrations, resets). */
async function listBakFiles(dbPath: string): Promise<{ count: number; newest: string | null }> {
	const dir = path.dirname(dbPath);
	const prefix = `${path.basename(dbPath)}.bak-`;
	const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(prefix)).sort();
	return { count: names.length, newest: names.at(-1) ?? null };
}

function parseMaybeJson(raw: string | null): unknown {
	if (raw === null) return null;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}
