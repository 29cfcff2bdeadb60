import { chooseSheetKey } from '../../media/sheet-key.ts';
import type { FileStore } from '../../files/file-store.ts';
import { readGuestLanguage } from '../../guests/guest-profile.ts';
import { SelfieMissing } from '../job-errors.ts';
import { recordStage, type JobStage } from '../job-progress.ts';
import { recordDrawingChoices } from '../job.repository.ts';
import { jobFiles } from '../pipeline/job-files.ts';
import { pickRenderMode } from '../pipeline/pack-state.ts';
import type { PipelineContext } from '../pipeline/pipeline-context.ts';
import { pickArtStyle } from '../../media/sticker-style.ts';
import type { JobBrief } from '../../providers/provider.ts';
import { packTitle } from '../delivery/pack-title.ts';
import { warnAboutFallback } from './fallback-warning.ts';
import { readJobEventChoices } from './job-event.ts';
import type { QueueDeps } from './queue-deps.ts';

/**
 * What a pipeline stage works with, for one job. A queued job draws from its selfie and shows its
 * stages to the guest; a redraw of a delivered pack (`redraw`) draws from the face crop — the
 * selfie is deleted once the set exists — and leaves the finished job's stage and the guest's
 * messages alone.
 */
export async function buildJobContext(
	deps: QueueDeps,
	jobId: number,
	signal: AbortSignal,
	options: { redraw?: { faceCrop: Buffer } } = {}
): Promise<PipelineContext> {
	const job = await deps.db.job.findUniqueOrThrow({ where: { jobId } });
	const files = jobFiles(deps.settings.dataDir, jobId, job.sessionToken);
	const fileStore = deps.fileStore;
	const artStyle = pickArtStyle(job.artStyle, pickArtStyle(deps.settings.artStyle, 'cartoon'));
	const renderMode = pickRenderMode(job.renderMode, deps.settings.renderMode);
	if (!options.redraw && (job.artStyle !== artStyle || job.renderMode !== renderMode))
		await recordDrawingChoices(deps.db, jobId, { artStyle, renderMode });
	const locale = await readGuestLanguage(deps.db, job.telegramUserId);
	const choices = await readJobEventChoices(deps.db, job, locale);
	const brief: JobBrief = {
		jobId,
		...(options.redraw
			? { selfie: options.redraw.faceCrop, faceCrop: options.redraw.faceCrop }
			: await readPhotos(deps, fileStore, { jobId, photoPath: job.photoPath, faceCrop: files.keys.faceCrop })),
		outfit: choices.outfit,
		captions: choices.captions,
		artStyle,
		locale,
		sheetKey: chooseSheetKey(choices.outfit.palette),
		signal
	};
	const guest = await deps.db.user.findUnique({
		where: { telegramUserId: job.telegramUserId },
		select: { firstName: true }
	});
	// The guest sees the stage through their status message, edited by the worker's status task.
	const showStage = async (stage: JobStage, detail?: string) => {
		await recordStage(deps.db, deps.clock, jobId, stage, detail ?? null);
	};
	return {
		db: deps.db,
		clock: deps.clock,
		logger: deps.logger,
		provider: deps.provider,
		prices: deps.prices,
		fallback: deps.fallback,
		providersUsed: new Set(),
		onFallback: (event) => warnAboutFallback(deps, event),
		jobId,
		brief,
		setTitle: packTitle(choices.titleTemplate, {
			event: choices.eventName,
			firstName: guest?.firstName ?? null,
			locale
		}),
		files,
		fileStore,
		renderMode,
		animatedStickers: choices.animatedStickers,
		videoTools: deps.videoTools,
		dataDir: deps.settings.dataDir,
		signal,
		enterStage: options.redraw ? async () => undefined : showStage,
		crashPoint: deps.crashPoint,
		sleep: deps.sleep,
		retryBaseMs: deps.settings.retryBaseMs
	};
}

/** After the set exists the selfie is gone; the drawing half is skipped then, so empty buffers do. */
async function readPhotos(
	deps: QueueDeps,
	fileStore: FileStore,
	job: { jobId: number; photoPath: string; faceCrop: string }
): Promise<Pick<JobBrief, 'selfie' | 'faceCrop'>> {
	const progress = await deps.db.jobProgress.findUnique({
		where: { jobId: job.jobId },
		select: { stickersReadyAt: true }
	});
	if (progress?.stickersReadyAt) return { selfie: Buffer.alloc(0), faceCrop: Buffer.alloc(0) };
	return {
		selfie: await readSelfie(fileStore, job.photoPath),
		faceCrop: (await fileStore.get(job.faceCrop).catch(() => null)) ?? Buffer.alloc(0)
	};
}

/** The selfie is gone (TTL sweep, /forget, a reset): no retry can bring it back. */
async function readSelfie(fileStore: FileStore, photoPath: string): Promise<Buffer> {
	// jobs.photo_path is the store's reference; one it cannot read (another disk's path) is as gone.
	const key = fileStore.keyOf(photoPath);
	const selfie = key ? await fileStore.get(key) : null;
	if (!selfie) throw new SelfieMissing();
	return selfie;
}
