import { readFile } from 'node:fs/promises';
import { jobEventBrief } from '../../events/job-event-brief.ts';
import { readGuestLanguage } from '../../guests/guest-profile.ts';
import { showStageToGuest } from '../../telegram/guest-notices.ts';
import { SelfieMissing } from '../job-errors.ts';
import { recordStage, type JobStage } from '../job-progress.ts';
import { recordDrawingChoices } from '../job.repository.ts';
import { jobFiles } from '../pipeline/job-files.ts';
import { pickRenderMode } from '../pipeline/pack-state.ts';
import type { PipelineContext } from '../pipeline/pipeline-context.ts';
import { pickArtStyle } from '../../media/sticker-style.ts';
import type { JobBrief } from '../../providers/provider.ts';
import { warnAboutFallback } from './fallback-warning.ts';
import type { QueueDeps } from './queue-deps.ts';

/**
 * What a pipeline stage works with, for one job. A queued job draws from its selfie and shows its
 * stages to the guest; a redraw of a delivered pack (`redraw`) draws from the face crop — the
 * selfie is deleted once the set exists — and leaves the finished job's stage and the guest's
 * messages alone.
 */
export async function buildJobContext(deps: QueueDeps, jobId: number, signal: AbortSignal, options: { redraw?: { faceCrop: Buffer } } = {}): Promise<PipelineContext> {
	const job = await deps.db.job.findUniqueOrThrow({ where: { jobId } });
	const files = jobFiles(deps.settings.dataDir, jobId, job.sessionToken);
	const artStyle = pickArtStyle(job.artStyle, pickArtStyle(deps.settings.artStyle, 'cartoon'));
	const renderMode = pickRenderMode(job.renderMode, deps.settings.renderMode);
	if (!options.redraw && (job.artStyle !== artStyle || job.renderMode !== renderMode)) await recordDrawingChoices(deps.db, jobId, { artStyle, renderMode });
	const locale = await readGuestLanguage(deps.db, job.telegramUserId);
	const fromEvent = await jobEventBrief(deps.db, jobId, job.templateId, locale);
	const brief: JobBrief = {
		jobId,
		...(options.redraw ? { selfie: options.redraw.faceCrop, faceCrop: options.redraw.faceCrop } : await readPhotos(deps, jobId, job.photoPath, files.faceCrop)),
		outfitId: job.templateId,
		outfitPrompt: `wearing the "${job.templateId}" outfit`,
		outfit: fromEvent.outfit,
		captions: fromEvent.captions,
		artStyle,
		locale
	};
	const notices = { db: deps.db, api: deps.api, logger: deps.logger };
	const showStage = async (stage: JobStage, detail?: string) => {
		await recordStage(deps.db, deps.clock, jobId, stage, detail ?? null);
		await showStageToGuest(notices, jobId, job.telegramUserId, stage);
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
		files,
		renderMode,
		dataDir: deps.settings.dataDir,
		signal,
		enterStage: options.redraw ? async () => undefined : showStage,
		crashPoint: deps.crashPoint,
		sleep: deps.sleep,
		retryBaseMs: deps.settings.retryBaseMs
	};
}

/** After the set exists the selfie is gone; the drawing half is skipped then, so empty buffers do. */
async function readPhotos(deps: QueueDeps, jobId: number, photoPath: string, faceCropPath: string): Promise<Pick<JobBrief, 'selfie' | 'faceCrop'>> {
	const progress = await deps.db.jobProgress.findUnique({ where: { jobId }, select: { stickersReadyAt: true } });
	if (progress?.stickersReadyAt) return { selfie: Buffer.alloc(0), faceCrop: Buffer.alloc(0) };
	return { selfie: await readSelfie(photoPath), faceCrop: await readFile(faceCropPath).catch(() => Buffer.alloc(0)) };
}

/** The selfie is gone (TTL sweep, /forget, a reset): no retry can bring it back. */
async function readSelfie(photoPath: string): Promise<Buffer> {
	try {
		return await readFile(photoPath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SelfieMissing();
		throw error;
	}
}
