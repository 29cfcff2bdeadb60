import type { Config } from '../../src/lib/server/config/config.ts';
import type { Db } from '../../src/lib/server/db/client.ts';
import type { FileStore } from '../../src/lib/server/files/file-store.ts';
import { silentLogger, type Logger } from '../../src/lib/server/log/logger.ts';
import type { TelegramApi } from '../../src/lib/server/telegram/api.ts';
import { BotBudget } from '../../src/lib/server/telegram/bot-budget.ts';
import { systemClock, type Clock } from '../../src/lib/server/time/clock.ts';
import { createNoticeApi, type QueueInput } from '../../src/worker/queue/start-queue.ts';

/**
 * What a test or bench hands createJobLoop / createQueueDeps, built as the worker's main.ts builds
 * it: the world's database, bot Api and file store, a send budget of the loop's own and the guest
 * notices' client from the config. Defaults: the system clock, a silent logger, worker `w1`.
 */
export function jobLoopInput(
	world: { db: Db; api: TelegramApi; fileStore: FileStore },
	config: Config,
	options: { clock?: Clock; logger?: Logger; workerId?: string; fileStore?: FileStore } = {}
): QueueInput {
	const clock = options.clock ?? systemClock;
	return {
		config,
		db: world.db,
		clock,
		budget: new BotBudget(world.db, clock, 'test'),
		logger: options.logger ?? silentLogger,
		api: world.api,
		workerId: options.workerId ?? 'w1',
		fileStore: options.fileStore ?? world.fileStore,
		noticeApi: createNoticeApi(config)
	};
}
