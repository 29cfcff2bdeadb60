import { readFile } from 'node:fs/promises';
import { deliverPack } from '../../lib/server/delivery/deliver-pack.ts';
import { readGuestLocale, showStageToGuest } from '../../lib/server/jobs/guest-notices.ts';
import { recordStage, type JobStage } from '../../lib/server/jobs/job-progress.ts';
import { releaseLease, renewLease, type ClaimedJob, type LeaseRef } from '../../lib/server/jobs/job-queue.repository.ts';
import { jobFiles } from '../../lib/server/jobs/pipeline/job-files.ts';
import type { PipelineContext } from '../../lib/server/jobs/pipeline/pipeline-context.ts';
import { pickRenderMode } from '../../lib/server/jobs/pipeline/pack-state.ts';
import { drawStickers } from '../../lib/server/jobs/pipeline/run-pipeline.ts';
import { pickArtStyle } from '../../lib/server/media/sticker-style.ts';
import type { JobBrief } from '../../lib/server/providers/provider.ts';
import { warnAboutFallback } from './fallback-warning.ts';
import { handleJobFailure, SelfieMissing } from './job-failure.ts';
import type { QueueDeps } from './queue-deps.ts';

/**
 * One claimed job in one slot: heartbeat the lease, draw, deliver; on any error hand over to
 * handleJobFailure. The lease is always released at the end (graphile-worker: every job released).
 */
export async function runClaimedJob(deps: QueueDeps, claimed: ClaimedJob, shutdown: AbortSignal): Promise<void> {
	const { jobId, attempts } = claimed;
	const lease: LeaseRef = { jobId, workerId: deps.workerId, claimedAt: claimed.claimedAt };
	const controller = new AbortController();
	const onShutdown = () => controller.abort('worker shutting down');
	shutdown.addEventListener('abort', onShutdown, { once: true });
	const heartbeat = startLeaseHeartbeat(deps, lease, controller);
	try {
		deps.crashPoint('after_claim');
		const ctx = await buildContext(deps, jobId, controller.signal);
		await drawStickers(ctx);
		await recordProvidersUsed(deps, jobId, ctx.providersUsed);
		const holdsLease = () => renewLease(deps.db, deps.clock, lease, deps.settings.leaseMs);
		await deliverPack({ ...ctx, api: deps.api, botUsername: await deps.botUsername(), locale: ctx.brief.locale, sleep: deps.sleep, holdsLease }, jobId);
	} catch (error) {
		await handleJobFailure(deps, { jobId, attempts, error, signal: controller.signal });
	} finally {
		clearInterval(heartbeat);
		shutdown.removeEventListener('abort', onShutdown);
		await releaseLease(deps.db, lease).catch((error: unknown) => deps.logger.error({ err: error, jobId }, 'could not release the lease'));
	}
}

/** Renews the lease every third of its length; aborts the job when the lease or the job is gone. */
function startLeaseHeartbeat(deps: QueueDeps, lease: LeaseRef, controller: AbortController): NodeJS.Timeout {
	const { jobId } = lease;
	const timer = setInterval(() => {
		renewLease(deps.db, deps.clock, lease, deps.settings.leaseMs)
			.then((held) => {
				if (!held) controller.abort('lease lost or job no longer active');
			})
			.catch((error: unknown) => deps.logger.warn({ err: error, jobId }, 'lease renewal failed; will retry'));
	}, Math.max(200, Math.floor(deps.settings.leaseMs / 3)));
	timer.unref();
	return timer;
}

async function buildContext(deps: QueueDeps, jobId: number, signal: AbortSignal): Promise<PipelineContext> {
	const job = await deps.db.job.findUniqueOrThrow({ where: { jobId } });
	const files = jobFiles(deps.settings.dataDir, jobId, job.sessionToken);
	const locale = await readGuestLocale(deps.db, job.telegramUserId);
	const artStyle = pickArtStyle(job.artStyle, pickArtStyle(deps.settings.artStyle, 'cartoon'));
	const renderMode = pickRenderMode(job.renderMode, deps.settings.renderMode);
	if (job.artStyle !== artStyle || job.renderMode !== renderMode) await deps.db.job.update({ where: { jobId }, data: { artStyle, renderMode } });
	const progress = await deps.db.jobProgress.findUnique({ where: { jobId }, select: { stickersReadyAt: true } });
	// After the set exists the selfie is gone; the drawing half is skipped then, so empty buffers do.
	const ready = Boolean(progress?.stickersReadyAt);
	const brief: JobBrief = {
		jobId,
		selfie: ready ? Buffer.alloc(0) : await readSelfie(job.photoPath),
		faceCrop: ready ? Buffer.alloc(0) : await readFile(files.faceCrop).catch(() => Buffer.alloc(0)),
		outfitId: job.templateId,
		outfitPrompt: `wearing the "${job.templateId}" outfit`,
		artStyle,
		locale
	};
	const notices = { db: deps.db, api: deps.api, logger: deps.logger };
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
		enterStage: async (stage: JobStage, detail?: string) => {
			await recordStage(deps.db, deps.clock, jobId, stage, detail ?? null);
			await showStageToGuest(notices, jobId, job.telegramUserId, stage);
		},
		crashPoint: deps.crashPoint,
		sleep: deps.sleep,
		retryBaseMs: deps.settings.retryBaseMs
	};
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

/** jobs.provider_used lists every provider that drew part of the pack, across resumed runs too. */
async function recordProvidersUsed(deps: QueueDeps, jobId: number, used: Set<string>): Promise<void> {
	if (used.size === 0) return;
	const job = await deps.db.job.findUniqueOrThrow({ where: { jobId }, select: { providerUsed: true } });
	const all = new Set([...(job.providerUsed?.split(',').filter(Boolean) ?? []), ...used]);
	await deps.db.job.update({ where: { jobId }, data: { providerUsed: [...all].join(',') } });
}
