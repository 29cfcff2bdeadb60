/**
 * Faults the fake Gemini server can inject, each answering like the real API would
 * (google.rpc.Status JSON bodies). `times` counts requests it applies to; `match` limits it to
 * image or JSON (vision) requests, `qa` to the pack review (qa_pack). `qa_reject` and `sheet_reject`
 * are not errors but verdicts: the pack review (qa_pack) or a sheet review (qa_sheet) answers
 * ok=false, low likeness, for the `stickers` (pack numbers) it names.
 */
export type FaultKind = 'quota_minute' | 'quota_day' | 'billing' | 'server' | 'slow' | 'wrong_count' | 'qa_reject' | 'sheet_reject';

export interface FaultInput {
	kind: FaultKind;
	times?: number;
	match?: 'image' | 'json' | 'sheet' | 'qa' | 'any';
	/** For `slow`: how long to wait before answering normally. */
	delayMs?: number;
	/** For `qa_reject` / `sheet_reject`: the sticker numbers (1-based, in the pack) the review rejects. */
	stickers?: number[];
}

export interface ArmedFault extends Required<Omit<FaultInput, 'delayMs' | 'stickers'>> {
	delayMs: number;
	stickers: number[];
	used: number;
}

export function errorBody(kind: FaultKind, model: string): { status: number; body: unknown } | null {
	const quota = (quotaId: string, metric: string) => ({
		status: 429,
		body: {
			error: {
				code: 429,
				message: `You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: ${metric}, limit: 10, model: ${model}`,
				status: 'RESOURCE_EXHAUSTED',
				details: [
					{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: metric, quotaId, quotaDimensions: { model, location: 'global' } }] },
					{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }
				]
			}
		}
	});
	switch (kind) {
		case 'quota_minute':
			return quota('GenerateRequestsPerMinutePerProjectPerModel', 'generativelanguage.googleapis.com/generate_content_requests_per_minute');
		case 'quota_day':
			return quota('GenerateRequestsPerDayPerProjectPerModel', 'generativelanguage.googleapis.com/generate_content_requests_per_day');
		case 'billing':
			return { status: 429, body: { error: { code: 429, message: 'Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to manage your project and billing.', status: 'RESOURCE_EXHAUSTED' } } };
		case 'server':
			return { status: 503, body: { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } } };
		default:
			return null;
	}
}
