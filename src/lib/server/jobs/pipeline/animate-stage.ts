import { animatedStickerNumbers, motionOf } from '../../media/sticker-motion.ts';
import { makeVideoSticker } from '../../media/video-sticker.ts';
import { exists } from '../../files/file-store.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { readStored } from './job-files.ts';

/**
 * animate: the event's N moving stickers are made from the stickers already drawn and checked
 * (no provider call, so it is the same for every provider). Each clip is checked against
 * Telegram's video sticker rules before it is stored; one that cannot meet them — or any clip when
 * the worker has no ffmpeg — leaves its sticker still, with a warning in the log and in
 * `debug_sheets/job<id>_animation.json` (the console's job page lists it). A clip already stored
 * (a resumed job) is kept.
 */
export interface AnimationOutcome {
	n: number;
	motion: string;
	/** `video`: sticker_<n>.webm is stored; `still`: the pack keeps the PNG for this sticker. */
	result: 'video' | 'still';
	crf?: number;
	bytes?: number;
	warning?: string;
}

export async function animateStickers(ctx: PipelineContext): Promise<AnimationOutcome[]> {
	const numbers = animatedStickerNumbers(ctx.animatedStickers);
	if (numbers.length === 0) return [];
	await ctx.enterStage('animate');
	const outcomes: AnimationOutcome[] = [];
	for (const n of numbers) {
		if (await exists(ctx.fileStore, ctx.files.keys.video(n))) {
			outcomes.push({ n, motion: motionOf(n), result: 'video' });
			continue;
		}
		outcomes.push(await animateOne(ctx, n));
	}
	await ctx.fileStore.put(
		ctx.files.keys.debug('animation.json'),
		JSON.stringify({ jobId: ctx.jobId, at: ctx.clock.now().toISOString(), stickers: outcomes }, null, 2)
	);
	return outcomes;
}

/**
 * Sticker n made to move with its motion and stored as sticker_<n>.webm; on failure any older clip
 * of n is removed (a redrawn figure must not be delivered with the old figure's clip).
 */
export async function animateOne(ctx: PipelineContext, n: number): Promise<AnimationOutcome> {
	const motion = motionOf(n);
	const still = async (warning: string): Promise<AnimationOutcome> => {
		await ctx.fileStore.delete(ctx.files.keys.video(n));
		ctx.logger.warn({ jobId: ctx.jobId, sticker: n, motion, warning }, 'animated sticker falls back to the still one');
		return { n, motion, result: 'still', warning };
	};
	if (!ctx.videoTools) return still('ffmpeg with libvpx-vp9 is not available on this worker');
	const png = await readStored(ctx.fileStore, ctx.files.keys.sticker(n));
	const made = await makeVideoSticker(ctx.videoTools, png, motion, ctx.signal);
	if (!made.ok) return still(made.reason);
	await ctx.fileStore.put(ctx.files.keys.video(n), made.webm);
	return { n, motion, result: 'video', crf: made.crf, bytes: made.facts.bytes };
}
