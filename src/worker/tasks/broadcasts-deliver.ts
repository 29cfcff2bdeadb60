import { broadcastOutbox, type BroadcastCrashStep } from '../../lib/server/broadcasts/broadcast-outbox.ts';
import { finishDrainedBroadcasts, startDueBroadcasts } from '../../lib/server/broadcasts/broadcasts.repository.ts';
import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import { createCrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { runOutboxPass } from '../../lib/server/outbox/outbox-driver.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import type { BotBudget } from '../../lib/server/telegram/bot-budget.ts';
import type { ChatCooldown } from '../../lib/server/telegram/flood-control.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import { SECOND, type Clock } from '../../lib/server/time/clock.ts';

export {
	BROADCAST_CRASH_STEPS,
	MAX_ATTEMPTS,
	type BroadcastCrashStep
} from '../../lib/server/broadcasts/broadcast-outbox.ts';

/**
 * The broadcast task: starts the broadcasts whose time has come, runs one pass of the broadcast
 * outbox (broadcasts/broadcast-outbox.ts, through the outbox driver) and finishes the drained ones.
 */
export interface BroadcastDeliveryDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	budget: BotBudget;
	/** The worker's per-chat flood control, shared with the guest notices: a 429 quiets the guest's chat for both. */
	cooldown: ChatCooldown;
	leaseMs: number;
	/** Real time in production; a FakeClock's advance in tests. */
	sleep: (ms: number) => Promise<void>;
	random?: () => number;
	/** Crash injection for the crash tests (jobs/run/crash-points.ts); a no-op otherwise. */
	crashPoint?: (step: BroadcastCrashStep) => void;
	/** Where the pictures are (the process's one store). */
	fileStore: FileStore;
}

/** The broadcast outbox's deps from the worker's config; `budget` and `cooldown` are the worker's one of each. */
export function createBroadcastDeliveryDeps(
	config: Config,
	deps: { db: Db; clock: Clock; logger: Logger; budget: BotBudget; cooldown: ChatCooldown; fileStore: FileStore }
): BroadcastDeliveryDeps {
	return {
		...deps,
		// The outbox client has no auto-retry: a blind retry of an ambiguous failure is a duplicate message.
		api: createOutboxApi(config.telegram),
		leaseMs: config.BROADCAST_LEASE_SECONDS * SECOND,
		sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
		crashPoint: createCrashPoint()
	};
}

export async function deliverBroadcasts(
	deps: BroadcastDeliveryDeps,
	shouldStop: () => boolean = () => false
): Promise<number> {
	const started = await startDueBroadcasts(deps.db, deps.clock.now().toISOString());
	if (started.length > 0) deps.logger.info({ broadcasts: started }, 'broadcasts started');
	const crashPoint = deps.crashPoint as ((step: string) => void) | undefined;
	const sent = await runOutboxPass(broadcastOutbox(deps), { ...deps, crashPoint, shouldStop });
	await finishDrainedBroadcasts(deps.db, deps.clock.now().toISOString());
	return sent;
}
