import { hostname } from 'node:os';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log/logger.ts';
import type { Clock } from '../time/clock.ts';
import { HEARTBEAT_EVERY_MS, markWorkerStopped, recordHeartbeat, registerWorker } from '../workers/worker-registry.ts';

export interface WebRegistration {
	/** This launch's id in worker_processes (`host:pid:start`, as a worker's). */
	id: string;
	/** Stops the heartbeat and records the stop (the clean end of a launch). */
	stop: () => Promise<void>;
}

/**
 * On PostgreSQL several web processes on several hosts share the database, and a restore must
 * not replace the tables under any of them: each registers as a `web` row of worker_processes,
 * beats every 5 s and records its stop, so `npm run restore` and the Health page see it.
 */
export async function registerWebProcess(deps: {
	db: Db;
	clock: Clock;
	logger: Logger;
	version: string;
}): Promise<WebRegistration> {
	const { db, clock, logger } = deps;
	const id = `${hostname()}:${process.pid}:${clock.now().getTime()}`;
	await registerWorker(db, clock, {
		id,
		kind: 'web',
		pid: process.pid,
		hostname: hostname(),
		version: deps.version,
		slots: 0
	});
	let failing = false;
	const beat = async () => {
		try {
			await recordHeartbeat(db, clock, id, 0);
			failing = false;
		} catch (error) {
			// One warning per outage, not one every 5 s; after 30 s without a beat the launch counts as gone.
			if (!failing) logger.warn({ err: error }, 'web process heartbeat could not be written');
			failing = true;
		}
	};
	const timer = setInterval(() => void beat(), HEARTBEAT_EVERY_MS);
	timer.unref();
	const stop = async () => {
		clearInterval(timer);
		await markWorkerStopped(db, clock, id).catch((error: unknown) =>
			logger.error({ err: error }, 'could not mark the web process stopped')
		);
	};
	return { id, stop };
}
