import type { Db } from '../db/client.ts';
import { readMaintenance, type Maintenance } from '../settings/maintenance.ts';
import type { Clock } from '../time/clock.ts';
import { lastHeartbeatAgeSeconds, WORKER_STALE_AFTER_SECONDS } from '../workers/worker-registry.ts';

/**
 * ok: the database answers, the queue runs and a worker beats. paused: maintenance is on (an
 * operator's pause or the provider's billing stop). degraded: no live worker, or no database.
 */
export type HealthStatus = 'ok' | 'degraded' | 'paused';

/** Everything the service knows about its own health: for signed-in operators (console Health page). */
export interface HealthDetails {
	status: HealthStatus;
	version: string;
	db: { reachable: boolean };
	maintenance: Maintenance | null;
	worker: { alive: boolean; heartbeatAgeSeconds: number | null };
}

/**
 * What /health tells anyone who asks: no pause reason (it names the operator or carries the
 * provider's billing error), no version, no provider — only what a monitor acts on.
 */
export interface PublicHealth {
	status: HealthStatus;
	worker: { alive: boolean };
}

export interface HealthDeps {
	db: Db;
	clock: Clock;
	version: string;
}

export async function readHealthDetails({ db, clock, version }: HealthDeps): Promise<HealthDetails> {
	try {
		const [maintenance, heartbeatAgeSeconds] = await Promise.all([
			readMaintenance(db),
			lastHeartbeatAgeSeconds(db, clock)
		]);
		const alive = heartbeatAgeSeconds !== null && heartbeatAgeSeconds <= WORKER_STALE_AFTER_SECONDS;
		const status: HealthStatus = maintenance ? 'paused' : alive ? 'ok' : 'degraded';
		return { status, version, db: { reachable: true }, maintenance, worker: { alive, heartbeatAgeSeconds } };
	} catch {
		return {
			status: 'degraded',
			version,
			db: { reachable: false },
			maintenance: null,
			worker: { alive: false, heartbeatAgeSeconds: null }
		};
	}
}

export function toPublicHealth(details: HealthDetails): PublicHealth {
	return { status: details.status, worker: { alive: details.worker.alive } };
}

/** The public report and whether this web process can serve at all (its database answers). */
export async function readPublicHealth(deps: HealthDeps): Promise<{ health: PublicHealth; serving: boolean }> {
	const details = await readHealthDetails(deps);
	return { health: toPublicHealth(details), serving: details.db.reachable };
}
