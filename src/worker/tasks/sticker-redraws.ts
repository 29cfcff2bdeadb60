import { replaceStickerInPack, stickerInPack } from '../../lib/server/jobs/delivery/replace-sticker.ts';
import { animateOne } from '../../lib/server/jobs/pipeline/animate-stage.ts';
import { jobFileKeys, readStored } from '../../lib/server/jobs/pipeline/job-files.ts';
import { createPackState, pickRenderMode } from '../../lib/server/jobs/pipeline/pack-state.ts';
import { callProvider } from '../../lib/server/jobs/pipeline/provider-call.ts';
import { redrawSticker } from '../../lib/server/jobs/pipeline/sticker-redraw.ts';
import { findJob } from '../../lib/server/jobs/job.repository.ts';
import {
	claimStickerRedraw,
	finishStickerRedraw,
	requeueUnfinishedRedraws,
	type RedrawRequest
} from '../../lib/server/jobs/sticker-redraws.repository.ts';
import { buildJobContext } from '../../lib/server/jobs/run/job-context.ts';
import type { QueueDeps } from '../../lib/server/jobs/run/queue-deps.ts';
import { errorText } from '../../lib/server/errors/error-text.ts';

/**
 * Operators' redraws of single stickers in delivered packs, one at a time: the
 * figure is drawn again from the face crop and the anchor (the selfie is gone once the set
 * exists), checked by the local gate like any sticker (api stages `passport` + `regen`, costed),
 * then swapped into the Telegram set; a sticker that moved there is animated again with its motion
 * (or goes still, with a warning, when the clip cannot be made). Redraws are possible while the session folder lives
 * (PHOTO_TTL_HOURS); afterwards the request fails with a sentence saying so. A pass first puts back
 * the redraws a launch no longer alive left unfinished, then redraws until none waits or the worker stops.
 */
export async function runStickerRedraws(deps: QueueDeps, signal: AbortSignal): Promise<void> {
	// Every pass, not only at start: a worker killed on another host never starts here again.
	await requeueUnfinishedRedraws(deps.db, deps.clock, deps.workerId);
	while (!signal.aborted && (await runNextStickerRedraw(deps, signal)) !== null);
}

/** One redraw, if one is waiting: its id, or null when none was. */
export async function runNextStickerRedraw(deps: QueueDeps, signal: AbortSignal): Promise<number | null> {
	const request = await claimStickerRedraw(deps.db, deps.clock, deps.workerId);
	if (!request) return null;
	try {
		await redrawDeliveredSticker(deps, request, signal);
		await finishStickerRedraw(deps.db, deps.clock, request.id, { ok: true });
		deps.logger.info(
			{ jobId: request.jobId, sticker: request.stickerNumber },
			'sticker redrawn and replaced in the set'
		);
	} catch (error) {
		const message = error instanceof RedrawRefused ? error.message : `could not redraw: ${errorText(error)}`;
		deps.logger.warn({ err: error, jobId: request.jobId, sticker: request.stickerNumber }, 'sticker redraw failed');
		await finishStickerRedraw(deps.db, deps.clock, request.id, { ok: false, error: message });
	}
	return request.id;
}

async function redrawDeliveredSticker(deps: QueueDeps, request: RedrawRequest, signal: AbortSignal): Promise<void> {
	const job = await findJob(deps.db, request.jobId);
	if (!job || job.status !== 'done' || !job.packName)
		throw new RedrawRefused('the job is no longer a delivered pack (reset or erased)');
	const files = jobFileKeys(job.jobId, job.sessionToken);
	const fileStore = deps.fileStore;
	const [faceCrop, anchor] = await Promise.all([fileStore.get(files.faceCrop), fileStore.get(files.anchor)]);
	if (!faceCrop || !anchor)
		throw new RedrawRefused(
			'the guest’s photo and drawings are gone (deleted after PHOTO_TTL_HOURS), so there is nothing to draw from'
		);
	const ctx = await buildJobContext(deps, job.jobId, signal, { redraw: { faceCrop } });
	const appearance = await callProvider(ctx, 'passport', 'vision', () => ctx.provider.describeAppearance(ctx.brief));
	const state = createPackState(pickRenderMode(job.renderMode, 'figure'));
	// Each request draws differently: the attempt number varies the model's (or offline) drawing.
	const verdict = await redrawSticker(ctx, state, {
		appearance,
		anchor,
		n: request.stickerNumber,
		stage: 'regen',
		attempt: 2 + request.id
	});
	if (!verdict.ok)
		throw new RedrawRefused(`the new drawing failed the checks (${verdict.reasons.join(', ')}); the pack is unchanged`);
	// A sticker that moved in the set moves again, with the same motion, made from the new figure.
	const moved = (await stickerInPack(deps.api, job.packName, request.stickerNumber)).is_video;
	const clip = moved ? await animateOne(ctx, request.stickerNumber) : null;
	await replaceStickerInPack(deps.api, {
		userId: job.telegramUserId,
		packName: job.packName,
		stickerNumber: request.stickerNumber,
		png: await readStored(fileStore, files.sticker(request.stickerNumber)),
		webm: clip?.result === 'video' ? await readStored(fileStore, files.video(request.stickerNumber)) : null
	});
}

/** A redraw that cannot be done, with the sentence operators see. */
class RedrawRefused extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'RedrawRefused';
	}
}
