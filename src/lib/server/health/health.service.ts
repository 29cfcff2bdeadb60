import type { Db } from '../db/client.ts';
import { readMaintenance, type Maintenance } from '../settings/maintenance.ts';
import type { Clock } from '../time/clock.ts';
import { lastHeartbeatAgeSeconds } from '../workers/worker-registry.ts';

/** A worker that has not beaten for this long is reported as not alive (it beats every 5 s). */
export const WORKER_STALE_AFTER_SECONDS = 30;

export interface HealthReport {
	ok: boolean;
	version: string;
	db: { reachable: boolean };
	maintenance: Maintenance | null;
	worker: { alive: boolean; heartbeatAgeSeconds: number | null };
}

export interface HealthDeps {
	db: Db;
	clock: Clock;
	version: string;
}

/** `ok` means this web process can serve: its database answers. The rest is for people and monitors. */
export async function readHealth({ db, clock, version }: HealthDeps): Promise<HealthReport> {
	try {
		const [maintenance, heartbeatAgeSeconds] = await Promise.all([readMaintenance(db), lastHeartbeatAgeSeconds(db, clock)]);
		const alive = heartbeatAgeSeconds !== null && heartbeatAgeSeconds <= WORKER_STALE_AFTER_SECONDS;
		return { ok: true, version, db: { reachable: true }, maintenance, worker: { alive, heartbeatAgeSeconds } };
	} catch {
		return { ok: false, version, db: { reachable: false }, maintenance: null, worker: { alive: false, heartbeatAgeSeconds: null } };
	}
}
