import type { StickerVerdict } from '../../media/sticker-qa.ts';
import type { StickerReview } from '../../providers/provider.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { briefFor, callProvider } from './provider-call.ts';

/**
 * qa_pack: one provider review of all 12 stickers against the anchor (likeness, one person, not
 * cropped). One call per pack, not per sticker, keeps the check's cost to a single vision request.
 */
export async function reviewPack(
	ctx: PipelineContext,
	anchor: Buffer,
	stickers: Buffer[],
	local: StickerVerdict[]
): Promise<StickerReview[]> {
	const reviews = await callProvider(ctx, 'qa_pack', 'qa', (tone) =>
		ctx.provider.reviewPack({ brief: briefFor(ctx, tone), anchor, stickers, local })
	);
	return verdictsInOrder(
		reviews,
		stickers.map((_, i) => i + 1)
	);
}

/**
 * A review's verdicts in the order of `numbers`, matched by number: a list of the wrong length must
 * not shift verdicts onto the wrong stickers, and a sticker without one is kept (no evidence).
 */
export function verdictsInOrder(reviews: StickerReview[], numbers: number[]): StickerReview[] {
	return numbers.map(
		(n) =>
			reviews.find((r) => r.n === n) ?? {
				n,
				ok: true,
				likeness: 0,
				onePerson: true,
				cropped: false,
				notes: ['no verdict from the review']
			}
	);
}

/**
 * job<N>_likeness.json for the console: the anchor review (written by anchor_verify) stays at the
 * top level, the pack's verdicts go under `pack`, with which stickers were drawn again.
 */
export async function writeLikeness(
	ctx: PipelineContext,
	reviews: StickerReview[],
	regenerated: Set<number>
): Promise<void> {
	const key = ctx.files.keys.debug('likeness.json');
	const stored = await ctx.fileStore.get(key);
	const existing = stored ? (JSON.parse(stored.toString('utf8')) as Record<string, unknown>) : { jobId: ctx.jobId };
	const pack = {
		at: ctx.clock.now().toISOString(),
		provider: ctx.provider.name,
		stickers: reviews.map((r) => ({ ...r, regenerated: regenerated.has(r.n) }))
	};
	await ctx.fileStore.put(key, JSON.stringify({ ...existing, pack }, null, 2));
}
