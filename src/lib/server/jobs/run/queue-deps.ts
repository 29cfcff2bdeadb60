import type { Db } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { RenderMode } from '../pipeline/pack-state.ts';
import type { Logger } from '../../log/logger.ts';
import type { ImageProvider } from '../../providers/provider.ts';
import type { Prices } from '../../spend/usage-recorder.ts';
import type { Clock } from '../../time/clock.ts';
import type { TelegramApi } from '../../telegram/api.ts';
import type { GuestNoticeDeps } from '../guest-notice-outbox.ts';
import type { NoticeDeps } from '../../telegram/admin-alerts.ts';
import type { VideoStickerTools } from '../../media/video-sticker.ts';

/** What the job loop needs; tests build it with a FakeClock, the emulator's Api and any provider. */
export interface QueueSettings {
	slots: number;
	maxAttempts: number;
	leaseMs: number;
	pollMs: number;
	backoffBaseMs: number;
	backoffCapMs: number;
	retryBaseMs: number;
	dataDir: string;
	artStyle: string;
	/** RENDER_MODE: how jobs without their own render_mode are drawn. */
	renderMode: RenderMode;
	adminIds: readonly bigint[];
}

export interface QueueDeps {
	db: Db;
	clock: Clock;
	logger: Logger;
	api: TelegramApi;
	provider: ImageProvider;
	prices: Prices;
	/** IMAGE_PROVIDER_FALLBACK with its prices, when set. */
	fallback?: { provider: ImageProvider; prices: Prices };
	settings: QueueSettings;
	/** Selfies and face crops in, stickers and debug sheets out: the process's one store (FILE_STORE). */
	fileStore: FileStore;
	workerId: string;
	botUsername: () => Promise<string>;
	/** Test builds only (run/crash-points.ts); the job id lets a poison pill die on its own job. */
	crashPoint: (step: string, jobId?: number) => void;
	/** The guest notices outbox, shared with the worker's outbox task (one flood-control view). */
	notices: GuestNoticeDeps;
	/** Admin alerts (a pause, billing, the fallback): the notices' client, each alert a place in the send budget. */
	alerts: NoticeDeps;
	sleep: (ms: number, signal: AbortSignal) => Promise<void>;
	/**
	 * ffmpeg (libvpx-vp9) + ffprobe for animated stickers, checked once at start (createQueueDeps);
	 * null: they are missing, and every pack is delivered with still stickers only.
	 */
	videoTools: VideoStickerTools | null;
}

/** A sleep that ends early (rejecting) when the job is aborted. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) return reject(signal.reason);
		const timer = setTimeout(() => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal.reason);
		};
		signal.addEventListener('abort', onAbort, { once: true });
	});
}
