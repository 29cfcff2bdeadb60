import { animateStickers } from './animate-stage.ts';
import { markStickersReady, readJobProgress } from '../job-progress.ts';
import { ensureAnchor, ensureAppearance } from './draw-stages.ts';
import { compositeAll } from './heads-stage.ts';
import { createPackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { passQualityGate } from './quality-gate.ts';
import { ensureSheets } from './sheet-stage.ts';

/**
 * The drawing half of a job: passport → anchor → anchor_verify → sheet → cut → qa_sheet/regen →
 * heads (composite mode) → qa_pack/qa_regen/heads → animate (the event's moving stickers, made from
 * the checked ones), ending with 12 checked stickers on disk and job_progress.stickers_ready_at set. Every stage skips work whose result is already stored, so a
 * job resumed after a crash continues where it stopped.
 */
export async function drawStickers(ctx: PipelineContext): Promise<void> {
	const progress = await readJobProgress(ctx.db, ctx.jobId);
	if (progress?.stickersReadyAt) return;
	const state = createPackState(ctx.renderMode);
	const appearance = await ensureAppearance(ctx);
	const anchor = await ensureAnchor(ctx, appearance);
	await ensureSheets(ctx, state, { appearance, anchor });
	if (state.renderMode === 'composite') await compositeAll(ctx, state, { appearance, anchor });
	await passQualityGate(ctx, state, { appearance, anchor });
	await animateStickers(ctx);
	await markStickersReady(ctx.db, ctx.clock, ctx.jobId);
}
