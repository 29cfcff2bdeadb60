import type { Config } from '../../lib/server/config/config.ts';
import type { Db } from '../../lib/server/db/client.ts';
import type { FileStore } from '../../lib/server/files/file-store.ts';
import type { Logger } from '../../lib/server/log/logger.ts';
import { createFallbackProvider, createImageProvider, pricesFor } from '../../lib/server/providers/create-provider.ts';
import type { Clock } from '../../lib/server/time/clock.ts';
import type { TelegramApi } from '../../lib/server/telegram/api.ts';
import { createCrashPoint } from '../../lib/server/jobs/run/crash-points.ts';
import type { BotBudget } from '../../lib/server/telegram/bot-budget.ts';
import { ChatCooldown } from '../../lib/server/telegram/flood-control.ts';
import { createOutboxApi } from '../../lib/server/telegram/outbox-api.ts';
import { JobLoop } from './job-loop.ts';
import { missingVideoTools, videoStickerTools, type VideoStickerTools } from '../../lib/server/media/video-sticker.ts';
import { abortableSleep, type QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';

/**
 * `noticeApi`: the guest notices' client (required: the worker passes the one whose sends the message history
 * sees; tests pass createNoticeApi(config));
 * `budget`: the worker's one bot-wide send budget, shared with the broadcasts (required: no sender skips it).
 * `fileStore`: the process's one store from openFileStore at start (required: the loop never opens its own).
 */
export type QueueInput = {
	config: Config;
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	workerId: string;
	noticeApi: TelegramApi;
	budget: BotBudget;
	fileStore: FileStore;
	/** ffmpeg/ffprobe to use (tests name missing ones); the ones on PATH when not given. */
	videoTools?: VideoStickerTools;
};

/** Builds the job loop from the configuration (worker main.ts and tests that run it in-process). */
export async function createJobLoop(input: QueueInput): Promise<JobLoop> {
	return new JobLoop(await createQueueDeps(input));
}

/** What the job loop and the sticker redraws share: providers, prices, settings, the bot's Api. */
export async function createQueueDeps(input: QueueInput): Promise<QueueDeps> {
	const { config } = input;
	let username: string | undefined;
	const crashPoint = createCrashPoint();
	const noticeApi = input.noticeApi;
	const budget = input.budget;
	// One per worker for the guests' and admins' chats: a 429 on any message to a person quiets that chat.
	const cooldown = new ChatCooldown();
	const deps: QueueDeps = {
		db: input.db,
		clock: input.clock,
		logger: input.logger.child({ component: 'queue' }),
		api: input.api,
		provider: await createImageProvider(config),
		prices: pricesFor(config),
		fallback: await createFallbackProvider(config),
		workerId: input.workerId,
		fileStore: input.fileStore,
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
		crashPoint,
		notices: {
			db: input.db,
			clock: input.clock,
			logger: input.logger.child({ component: 'guest-notices' }),
			api: noticeApi,
			cooldown,
			budget,
			slots: config.WORKER_SLOTS,
			leaseMs: config.JOB_LEASE_SECONDS * 1000,
			crashPoint
		},
		alerts: {
			db: input.db,
			clock: input.clock,
			api: noticeApi,
			logger: input.logger.child({ component: 'admin-alerts' }),
			pacing: { budget, sleep: timerSleep },
			cooldown
		},
		sleep: abortableSleep,
		videoTools: await videoToolsAtStart(input.videoTools ?? videoStickerTools(), input.logger)
	};
	return deps;
}

/**
 * Animated stickers need ffmpeg with libvpx-vp9 and ffprobe (installed by npm start / the
 * bootstrap). Without them the worker says so once and delivers still stickers only.
 */
export async function videoToolsAtStart(tools: VideoStickerTools, logger: Logger): Promise<VideoStickerTools | null> {
	const missing = await missingVideoTools(tools);
	if (!missing) return tools;
	logger.warn(
		{ missing },
		'animated stickers are off: ffmpeg with libvpx-vp9 and ffprobe are needed (run npm start or scripts/bootstrap.sh to install them); packs get still stickers only'
	);
	return null;
}

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The guest notices' Telegram client: no auto-retry (the outbox retries on its own schedule) and a
 * timeout of half the notice lease (JOB_LEASE_SECONDS), so a claim always outlives its call.
 */
export function createNoticeApi(config: Config): TelegramApi {
	return createOutboxApi(config.telegram, Math.max(1, Math.floor(config.JOB_LEASE_SECONDS / 2)));
}
