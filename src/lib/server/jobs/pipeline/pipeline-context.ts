import type { Db } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Logger } from '../../log/logger.ts';
import type { ImageProvider, JobBrief } from '../../providers/provider.ts';
import type { Prices } from '../../spend/usage-recorder.ts';
import type { Clock } from '../../time/clock.ts';
import type { JobStage } from '../job-progress.ts';
import type { VideoStickerTools } from '../../media/video-sticker.ts';
import type { JobFiles } from './job-files.ts';
import type { RenderMode } from './pack-state.ts';

/** Everything a pipeline stage may use; built once per claimed job. */
export interface PipelineContext {
	db: Db;
	clock: Clock;
	logger: Logger;
	/** The provider drawing this job now, with its prices; the fallback replaces both when it takes over. */
	provider: ImageProvider;
	prices: Prices;
	/** IMAGE_PROVIDER_FALLBACK, when set and not yet in use. */
	fallback?: { provider: ImageProvider; prices: Prices };
	/** Providers whose calls succeeded in this run, in order (jobs.provider_used). */
	providersUsed: Set<string>;
	/** Tells operators (once per provider, failure and quota day) that the fallback took over. */
	onFallback(event: FallbackEvent): Promise<void>;
	jobId: number;
	brief: JobBrief;
	/** The sticker set's title, from the event's title template (delivery creates the set with it). */
	setTitle: string;
	files: JobFiles;
	/** Where the job's files are read and written (`files.keys`): DATA_DIR or the bucket. */
	fileStore: FileStore;
	/** How many stickers move (the event's animated_stickers, 0–12). */
	animatedStickers: number;
	/** ffmpeg + ffprobe for video stickers; null when the worker found none at start (stills only). */
	videoTools: VideoStickerTools | null;
	/** jobs.render_mode when the run started (composite_fallback is decided during the run). */
	renderMode: RenderMode;
	dataDir: string;
	/** Aborted when the lease is lost, the job left its active state, or the worker shuts down. */
	signal: AbortSignal;
	/** Records the stage (job_progress) and shows it to the guest. */
	enterStage(stage: JobStage, detail?: string): Promise<void>;
	/** Test builds only: dies at a named step (see jobs/run/crash-points.ts). */
	crashPoint(step: string): void;
	/** Waits between in-stage retries; tests pass an instant one. */
	sleep(ms: number, signal: AbortSignal): Promise<void>;
	retryBaseMs: number;
}

export interface FallbackEvent {
	from: string;
	to: string;
	failure: string;
	message: string;
}
