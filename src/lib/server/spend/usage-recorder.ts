import type { Db } from '../db/client.ts';
import type { CallUsage, ProviderName } from '../providers/provider.ts';
import type { Clock } from '../time/clock.ts';

/**
 * api_usage: one row per provider call — success, 429 or error. Cost comes from the
 * prices in the environment at call time; failed and rate-limited calls cost 0 (not billed).
 */
export interface Prices {
	inputPerMTok: number;
	outputTextPerMTok: number;
	outputImagePerMTok: number;
}

export interface UsageRow {
	jobId: number | null;
	stage: string;
	provider: ProviderName;
	usage: Partial<CallUsage> & { kind: CallUsage['kind']; model: string };
	ok: boolean;
	error?: string;
}

/** Tokens × rate; image tokens and thinking tokens at their own rates (thinking is billed as text output). */
export function estimateCostUsd(usage: Partial<CallUsage>, prices: Prices): number {
	if (usage.imageCostUsd !== undefined) return round6(usage.imageCostUsd + ((usage.promptTokens ?? 0) * prices.inputPerMTok) / 1e6);
	const imageTokens = usage.imageTokens ?? 0;
	const textOut = Math.max(0, (usage.outputTokens ?? 0) - imageTokens) + (usage.thoughtsTokens ?? 0);
	const cost = ((usage.promptTokens ?? 0) * prices.inputPerMTok + textOut * prices.outputTextPerMTok + imageTokens * prices.outputImagePerMTok) / 1e6;
	return round6(cost);
}

export async function recordApiUsage(db: Db, clock: Clock, prices: Prices, row: UsageRow): Promise<void> {
	const u = row.usage;
	await db.apiUsage.create({
		data: {
			jobId: row.jobId,
			ts: clock.now().toISOString(),
			kind: u.kind,
			provider: row.provider,
			model: u.model,
			promptTokens: u.promptTokens ?? null,
			outputTokens: u.outputTokens ?? null,
			images: row.ok ? (u.images ?? 0) : 0,
			estCostUsd: row.ok ? estimateCostUsd(u, prices) : 0,
			ok: row.ok ? 1 : 0,
			httpStatus: u.httpStatus ?? null,
			error: row.error ? row.error.slice(0, 1000) : null,
			stage: row.stage,
			resolution: u.resolution ?? null,
			imageTokens: u.imageTokens ?? null,
			thoughtsTokens: u.thoughtsTokens ?? null
		}
	});
}

/** Image requests sent to paid providers since `sinceIso` (the Pacific quota day's start). */
export async function countImageRequestsSince(db: Db, sinceIso: string): Promise<number> {
	return db.apiUsage.count({ where: { ts: { gte: sinceIso }, kind: 'image', provider: { not: 'offline' } } });
}

function round6(value: number): number {
	return Math.round(value * 1e6) / 1e6;
}
