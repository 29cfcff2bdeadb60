/**
 * What one pack cost, from its api_usage rows: calls (and how many failed), image generations, the
 * tokens billed by kind, and dollars at the prices recorded with each call. Failed calls are in the
 * call count but cost nothing and made nothing. Shown on the console's Job page and printed by the
 * cost benchmark.
 */
export interface UsageForCost {
	ok: boolean;
	images: number;
	promptTokens: number | null;
	outputTokens: number | null;
	imageTokens: number | null;
	thoughtsTokens: number | null;
	costUsd: number;
}

export interface PackCost {
	calls: number;
	failedCalls: number;
	imageGenerations: number;
	promptTokens: number;
	/** Output tokens other than image tokens (text). */
	textTokens: number;
	imageTokens: number;
	thoughtsTokens: number;
	totalTokens: number;
	usd: number;
}

export function summarisePackCost(rows: UsageForCost[]): PackCost {
	const ok = rows.filter((r) => r.ok);
	const sum = (pick: (r: UsageForCost) => number | null) => ok.reduce((total, r) => total + (pick(r) ?? 0), 0);
	const promptTokens = sum((r) => r.promptTokens);
	const imageTokens = sum((r) => r.imageTokens);
	const textTokens = sum((r) => Math.max(0, (r.outputTokens ?? 0) - (r.imageTokens ?? 0)));
	const thoughtsTokens = sum((r) => r.thoughtsTokens);
	return {
		calls: rows.length,
		failedCalls: rows.length - ok.length,
		imageGenerations: sum((r) => r.images),
		promptTokens,
		textTokens,
		imageTokens,
		thoughtsTokens,
		totalTokens: promptTokens + textTokens + imageTokens + thoughtsTokens,
		usd: Math.round(sum((r) => r.costUsd) * 1e6) / 1e6
	};
}
