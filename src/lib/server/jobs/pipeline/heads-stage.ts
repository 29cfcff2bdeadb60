import { getFaceDetector } from '../../media/face-detector.ts';
import { pasteHead, prepareHead, type PreparedHead } from '../../media/head-paste.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { readStored } from './job-files.ts';
import type { PackState } from './pack-state.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { expectUsableSize } from './drawn-size.ts';
import { briefFor, callProvider } from './provider-call.ts';

/**
 * Stage `heads`: the guest's head, drawn once per job by the provider (kept as head.png in the
 * session folder, so a resumed job does not pay for it twice) and pasted over the face of generated
 * figures — every sticker in composite mode; in figure mode only a figure whose face failed review
 * after its redraw (the job becomes composite_fallback). job<N>_heads.json says where each head
 * went, for the console.
 */
interface HeadsLog {
	jobId: number;
	stickers: Record<
		string,
		{ placed: boolean; face?: { x: number; y: number; width: number; height: number }; at: string }
	>;
}

type HeadInput = { appearance: AppearanceCard; anchor: Buffer };

/** Composite mode: the head on every sticker not already done before a crash. */
export async function compositeAll(ctx: PipelineContext, state: PackState, input: HeadInput): Promise<void> {
	const log = await readHeadsLog(ctx);
	const numbers = STICKER_VARIANTS.map((_, i) => i + 1).filter((n) => !log.stickers[n]?.placed);
	if (numbers.length > 0) await ctx.enterStage('heads', `${numbers.length} stickers`);
	for (const n of numbers) {
		const png = await withGuestHead(ctx, state, {
			...input,
			n,
			png: await readStored(ctx.fileStore, ctx.files.keys.sticker(n))
		});
		await ctx.fileStore.put(ctx.files.keys.sticker(n), png);
		state.verdicts.delete(n);
		ctx.crashPoint('after_head_pasted');
	}
}

/** Sticker n with the guest's head on its face; unchanged when the figure shows no face to replace. */
export async function withGuestHead(
	ctx: PipelineContext,
	state: PackState,
	input: HeadInput & { n: number; png: Buffer }
): Promise<Buffer> {
	const head = await ensurePreparedHead(ctx, state, input);
	const pasted = await pasteHead(input.png, head, await getFaceDetector());
	await recordHead(ctx, input.n, pasted ? pasted.target : null);
	if (!pasted) ctx.logger.warn({ jobId: ctx.jobId, n: input.n }, 'no face on the figure to put the head on');
	return pasted?.png ?? input.png;
}

async function ensurePreparedHead(ctx: PipelineContext, state: PackState, input: HeadInput): Promise<PreparedHead> {
	if (state.head) return state.head;
	const drawn = (await ctx.fileStore.get(ctx.files.keys.head)) ?? (await drawHead(ctx, input));
	const prepared = await prepareHead(drawn, await getFaceDetector(), ctx.brief.sheetKey.rgb);
	if (!prepared) throw new ProviderError('bad_output', 'the drawn head shows no face');
	state.head = prepared;
	return prepared;
}

async function drawHead(ctx: PipelineContext, input: HeadInput): Promise<Buffer> {
	await ctx.enterStage('heads');
	const head = await callProvider(ctx, 'heads', 'image', (tone) =>
		ctx.provider.drawHead({ brief: briefFor(ctx, tone), appearance: input.appearance, anchor: input.anchor })
	);
	await expectUsableSize(head, 'the head');
	await ctx.fileStore.put(ctx.files.keys.head, head);
	await ctx.fileStore.put(ctx.files.keys.debug('head.png'), head);
	return head;
}

async function readHeadsLog(ctx: PipelineContext): Promise<HeadsLog> {
	const stored = await ctx.fileStore.get(ctx.files.keys.debug('heads.json'));
	if (!stored) return { jobId: ctx.jobId, stickers: {} };
	return JSON.parse(stored.toString('utf8')) as HeadsLog;
}

async function recordHead(
	ctx: PipelineContext,
	n: number,
	face: { x: number; y: number; width: number; height: number } | null
): Promise<void> {
	const log = await readHeadsLog(ctx);
	const box = face
		? { x: Math.round(face.x), y: Math.round(face.y), width: Math.round(face.width), height: Math.round(face.height) }
		: undefined;
	log.stickers[n] = { placed: Boolean(face), ...(box ? { face: box } : {}), at: ctx.clock.now().toISOString() };
	await ctx.fileStore.put(ctx.files.keys.debug('heads.json'), JSON.stringify(log, null, 2));
}
