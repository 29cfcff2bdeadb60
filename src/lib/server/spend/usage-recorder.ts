import type { Db } from '../db/client.ts';
import type { CallUsage, ProviderName, UsageKind } from '../providers/provider.ts';
import type { Clock } from '../time/clock.ts';

/**
 * api_usage: one row per provider call — success, 429 or error. Cost comes from the prices at call
 * time of the model that answered: an operator's price for a configured model (environment), else
 * the provider's list price of the model that answered, else the price of the call's kind. A call
 * the provider billed is costed whether or not we could use its answer (a text-only answer to an
 * image request, unreadable JSON, a call abandoned on timeout — `usage.billed`); errors the
 * provider does not bill (429, 5xx, 4xx) cost 0.
 */
export interface TokenPrices {
	inputPerMTok: number;
	outputTextPerMTok: number;
	outputImagePerMTok: number;
}

export interface Prices extends TokenPrices {
	/** Set by the operator for a configured model (GEMINI_PRICE_*, GEMINI_VISION_PRICE_*): wins over the list. */
	byModel?: Record<string, TokenPrices>;
	/** The provider's list price of a model on a day (the model that answered may not be the one asked). */
	listPrice?: (model: string, at: Date) => TokenPrices | undefined;
	/** For a model neither knows: the price of the configured model of the call's kind. */
	byKind?: Partial<Record<UsageKind, TokenPrices>>;
}

/** The prices one call is costed at: its model's (operator's, then list), else its kind's, else the provider's base. */
export function pricesOfCall(usage: Partial<CallUsage>, prices: Prices, at: Date): TokenPrices {
	const model = usage.model ?? '';
	return (
		prices.byModel?.[model] ??
		prices.listPrice?.(model, at) ??
		(usage.kind ? prices.byKind?.[usage.kind] : undefined) ??
		prices
	);
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
export function estimateCostUsd(usage: Partial<CallUsage>, prices: TokenPrices): number {
	if (usage.imageCostUsd !== undefined)
		return round6(usage.imageCostUsd + ((usage.promptTokens ?? 0) * prices.inputPerMTok) / 1e6);
	const imageTokens = usage.imageTokens ?? 0;
	const textOut = Math.max(0, (usage.outputTokens ?? 0) - imageTokens) + (usage.thoughtsTokens ?? 0);
	const cost =
		((usage.promptTokens ?? 0) * prices.inputPerMTok +
			textOut * prices.outputTextPerMTok +
			imageTokens * prices.outputImagePerMTok) /
		1e6;
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
			estCostUsd: row.ok || u.billed ? estimateCostUsd(u, pricesOfCall(u, prices, clock.now())) : 0,
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
