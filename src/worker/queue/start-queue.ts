import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { createFallbackProvider, createImageProvider, pricesFor } from '../../lib/server/providers/create-provider.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { createCrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import { JobLoop } from './job-loop.ts';
import { abortableSleep, type QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';

type QueueInput = { config: Config; db: Db; clock: Clock; logger: Logger; api: TelegramApi; workerId: string };

/** Builds the job loop from the configuration (worker main.ts and tests that run it in-process). */
export async function createJobLoop(input: QueueInput): Promise<JobLoop> {
	return new JobLoop(await createQueueDeps(input));
}

/** What the job loop and the sticker redraws share: providers, prices, settings, the bot's Api. */
export async function createQueueDeps(input: QueueInput): Promise<QueueDeps> {
	const { config } = input;
	let username: string | undefined;
	const deps: QueueDeps = {
		db: input.db,
		clock: input.clock,
		logger: input.logger.child({ component: 'queue' }),
		api: input.api,
		provider: await createImageProvider(config),
		prices: pricesFor(config),
		fallback: await createFallbackProvider(config),
		workerId: input.workerId,
		settings: {
			slots: config.WORKER_SLOTS,
			maxAttempts: config.JOB_MAX_ATTEMPTS,
			leaseMs: config.JOB_LEASE_SECONDS * 1000,
			pollMs: config.JOB_POLL_MS,
			backoffBaseMs: config.JOB_BACKOFF_BASE_SECONDS * 1000,
			backoffCapMs: config.JOB_BACKOFF_CAP_SECONDS * 1000,
			retryBaseMs: config.PROVIDER_RETRY_BASE_MS,
			dataDir: config.dataDir,
			artStyle: config.ART_STYLE,
			renderMode: config.RENDER_MODE,
			adminIds: config.ADMIN_TELEGRAM_IDS
		},
		botUsername: async () => (username ??= (await input.api.getMe()).username),
		crashPoint: createCrashPoint(),
		sleep: abortableSleep
	};
	return deps;
}
