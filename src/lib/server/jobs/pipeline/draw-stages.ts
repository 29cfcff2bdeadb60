import type { AppearanceCard } from '../../providers/provider.ts';
import { ProviderError } from '../../providers/provider.ts';
import { expectUsableSize } from './drawn-size.ts';
import { recordAppearanceCard } from '../job.repository.ts';
import { briefFor, callProvider } from './provider-call.ts';
import type { PipelineContext } from './pipeline-context.ts';

/**
 * passport → anchor → anchor_verify. The appearance card is cached in jobs.appearance_json and the
 * anchor on disk, so a retried job does not pay for either twice.
 */
export async function ensureAppearance(ctx: PipelineContext): Promise<AppearanceCard> {
	const job = await ctx.db.job.findUniqueOrThrow({ where: { jobId: ctx.jobId }, select: { appearanceJson: true } });
	const cached = parseCard(job.appearanceJson);
	if (cached) return cached;
	await ctx.enterStage('passport');
	const card = await callProvider(ctx, 'passport', 'vision', (tone) =>
		ctx.provider.describeAppearance(briefFor(ctx, tone))
	);
	await recordAppearanceCard(ctx.db, ctx.clock, ctx.jobId, JSON.stringify(card));
	return card;
}

export async function ensureAnchor(ctx: PipelineContext, appearance: AppearanceCard): Promise<Buffer> {
	const stored = await ctx.fileStore.get(ctx.files.keys.anchor);
	if (stored) return stored;
	let anchor: Buffer | undefined;
	for (let attempt = 1; attempt <= 2; attempt++) {
		await ctx.enterStage('anchor', attempt > 1 ? `try ${attempt}` : undefined);
		const drawn = await callProvider(ctx, 'anchor', 'image', (tone) =>
			ctx.provider.drawAnchor(briefFor(ctx, tone), appearance)
		);
		await expectUsableSize(drawn, 'the anchor');
		await ctx.enterStage('anchor_verify');
		const review = await callProvider(ctx, 'anchor_verify', 'qa', (tone) =>
			ctx.provider.reviewAnchor(briefFor(ctx, tone), appearance, drawn)
		);
		await ctx.fileStore.put(
			ctx.files.keys.debug('likeness.json'),
			JSON.stringify({ jobId: ctx.jobId, attempt, ...review, at: ctx.clock.now().toISOString() }, null, 2)
		);
		anchor = drawn;
		if (review.ok) break;
		ctx.logger.warn({ jobId: ctx.jobId, review }, 'anchor failed its review; drawing it once more');
	}
	if (!anchor) throw new ProviderError('bad_output', 'no anchor drawn');
	await ctx.fileStore.put(ctx.files.keys.anchor, anchor);
	await ctx.fileStore.put(ctx.files.keys.debug('anchor.png'), anchor);
	return anchor;
}

function parseCard(raw: string | null): AppearanceCard | null {
	if (!raw) return null;
	try {
		const value = JSON.parse(raw) as AppearanceCard;
		return typeof value.summary === 'string' ? value : null;
	} catch {
		return null;
	}
}
