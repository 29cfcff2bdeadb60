import { eraseExpiredBroadcasts } from '../../lib/server/broadcasts/broadcast-retention.ts';
import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { createCrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import type { BotBudget } from '../../lib/server/telegram/bot-budget.ts';
import { HOUR, SECOND, type Clock } from '../../lib/server/time/clock.ts';
import type { Scheduler } from '../scheduler.ts';
import { deliverBroadcasts, type BroadcastDeliveryDeps } from './broadcasts-deliver.ts';

/** The broadcast side of the worker: the outbox polls a cheap indexed query each second. */
export function scheduleBroadcastTasks(scheduler: Scheduler, config: Config, deps: { db: Db; clock: Clock; logger: Logger; budget: BotBudget; fileStore: FileStore }, isStopping: () => boolean): void {
	const { db, clock, logger, budget, fileStore } = deps;
	const delivery: BroadcastDeliveryDeps = {
		db,
		clock,
		logger,
		// The outbox client has no auto-retry: a blind retry of an ambiguous failure is a duplicate message.
		api: createOutboxApi(config.telegram),
		budget,
		leaseMs: config.BROADCAST_LEASE_SECONDS * SECOND,
		sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
		crashPoint: createCrashPoint(),
		fileStore
	};
	scheduler.add({ name: 'broadcasts-deliver', everyMs: SECOND, runAtStart: true, run: async () => void (await deliverBroadcasts(delivery, isStopping)) });
	scheduler.add({ name: 'broadcasts-retention', everyMs: HOUR, runAtStart: true, oncePerPeriod: true, run: async () => void (await eraseExpiredBroadcasts(db, clock, fileStore)) });
}
