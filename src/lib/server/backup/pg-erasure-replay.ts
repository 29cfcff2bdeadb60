import { openPostgresDatabase, type Db } from '../db/client.ts';
import { liveProcesses, type LiveProcess } from '../workers/worker-registry.ts';
import { prismaRunner, tableExists } from '../lifecycle/sql-runner.ts';
import { writeSetting } from '../settings/settings.repository.ts';
import type { Clock } from '../time/clock.ts';
import { LAST_RESTORE_KEY } from './backup-status.ts';
import { applyErasuresWith, collectErasuresFrom, type ErasuresToReplay } from './erasure-replay.ts';
import { RestoreError, type RestoreResult } from './restore.ts';

/**
 * Every worker and web process holds database connections and writes (jobs, logs, sessions,
 * heartbeats); a restore under one would mix its writes into the restored tables. A process is
 * alive while its heartbeat in worker_processes is fresh and it has not recorded a stop — on
 * PostgreSQL web processes register there too (kind 'web').
 */
export async function assertNoProcessAlive(db: Db, clock: Clock, force: boolean): Promise<void> {
	if (force || !(await tableExists(prismaRunner(db), 'worker_processes'))) return;
	const alive = await liveProcesses(db, clock);
	if (alive.length === 0) return;
	const names = alive
		.map((p) => `${p.hostname} pid ${p.pid} (${KIND_NAMES[p.kind].one}, heartbeat ${p.heartbeatAt})`)
		.join(', ');
	throw new RestoreError(
		`${countByKind(alive)} still running: ${names}. Stop every worker and web process first (systemctl stop sticker-bot sticker-api on each machine), or pass --force`
	);
}

const KIND_NAMES = {
	worker: { one: 'worker', counted: 'worker(s)' },
	web: { one: 'web process', counted: 'web process(es)' }
} as const;

/** "1 worker(s)", "2 web process(es)", "1 worker(s) and 1 web process(es)". */
function countByKind(alive: LiveProcess[]): string {
	return (['worker', 'web'] as const)
		.map((kind) => [kind, alive.filter((p) => p.kind === kind).length] as const)
		.filter(([, n]) => n > 0)
		.map(([kind, n]) => `${n} ${KIND_NAMES[kind].counted}`)
		.join(' and ');
}

/** The erasures recorded in `db` since `since`; null when it holds no product tables (nothing was ever erased). */
export async function collectPgErasures(
	db: Db,
	since: string,
	pseudonymKey: Buffer,
	withoutReplay: boolean
): Promise<ErasuresToReplay | null> {
	try {
		if (!(await tableExists(prismaRunner(db), 'audit_log'))) return null;
		return await collectErasuresFrom(prismaRunner(db), since, pseudonymKey);
	} catch (error) {
		if (withoutReplay) return null;
		throw new RestoreError(
			`cannot read the current database's erasures (${(error as Error).message}). Nothing was changed. To restore anyway (erasures made after the backup would come back), pass --without-replay`
		);
	}
}

export interface RestoreNote {
	/** What was restored: a backup's file name, or a point-in-time recovery. */
	from: string;
	backupTakenAt: string;
}

/** Re-applies the erasures and notes the restore for the Health page, in one transaction. */
export async function replayIntoRestored(
	db: Db,
	erasures: ErasuresToReplay | null,
	note: RestoreNote,
	clock: Clock,
	pseudonymKey: Buffer
): Promise<RestoreResult['reapplied']> {
	return db.$transaction(async (tx) => {
		const reapplied = erasures ? await applyErasuresWith(prismaRunner(tx), erasures, pseudonymKey) : null;
		await writeSetting(
			tx,
			clock,
			LAST_RESTORE_KEY,
			JSON.stringify({ at: clock.now().toISOString(), ...note, reapplied })
		);
		return reapplied;
	});
}

export interface PointInTimeReplayOptions {
	/** The database that went on after the moment (the one being replaced): its erasures are read. */
	fromUrl: string;
	/** The database recovered to the moment: the erasures are applied to it. */
	intoUrl: string;
	/** The moment the recovery went back to. */
	since: string;
	clock: Clock;
	pseudonymKey: Buffer;
	force?: boolean;
}

/**
 * After a managed database's point-in-time recovery into a new database: the erasures recorded
 * in the old one since the moment are applied to the recovered one, exactly as after a restore.
 */
export async function replayAfterPointInTimeRecovery(
	options: PointInTimeReplayOptions
): Promise<{ reapplied: RestoreResult['reapplied'] }> {
	const from = openPostgresDatabase(options.fromUrl);
	const into = openPostgresDatabase(options.intoUrl);
	try {
		await assertNoProcessAlive(into, options.clock, options.force ?? false);
		const erasures = await collectPgErasures(from, options.since, options.pseudonymKey, false);
		if (!erasures)
			throw new RestoreError('the database to read erasures from holds no tables of this product; nothing was changed');
		const reapplied = await replayIntoRestored(
			into,
			erasures,
			{ from: 'point-in-time recovery', backupTakenAt: options.since },
			options.clock,
			options.pseudonymKey
		);
		return { reapplied };
	} finally {
		await Promise.all([from.$disconnect(), into.$disconnect()]);
	}
}
