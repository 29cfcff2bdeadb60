/**
 * What the fake Gemini server can be told to do to the next matching requests, each the way the
 * real API does it. `times` counts the requests it applies to; `match` aims it at one kind of
 * request (see RequestKind); `reason` names the block or finish reason where one applies.
 *
 * Errors (google.rpc.Status bodies): quota_minute, quota_day, billing, server; `slow` waits
 * `delayMs` first. Refusals (HTTP 200): blocked_prompt (promptFeedback.blockReason, no candidates),
 * finish (a candidate that stopped for `reason`: IMAGE_SAFETY, PROHIBITED_CONTENT, SAFETY,
 * RECITATION, NO_IMAGE, …, with no image), no_candidates (an empty list), text_only (an image
 * request answered with words). Answer shapes: chatty (thought parts, a draft image marked as a
 * thought, text before and after), fenced_json (JSON inside a ```json fence with sentences
 * around it), jpeg (image/jpeg instead of PNG), default_size (imageConfig ignored: the model's
 * default 1K, ratio from the references). Drawings: wrong_count (one figure too few),
 * extra_figure (one too many). Verdicts: qa_reject / sheet_reject reject the `stickers` (pack
 * numbers) in the pack review (qa_pack) or the sheet review (qa_sheet) that shows them.
 */
export const FAULT_KINDS = [
	'quota_minute',
	'quota_day',
	'billing',
	'server',
	'slow',
	'blocked_prompt',
	'finish',
	'no_candidates',
	'text_only',
	'chatty',
	'fenced_json',
	'jpeg',
	'default_size',
	'wrong_count',
	'extra_figure',
	'qa_reject',
	'sheet_reject'
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Requests by what they ask for, read from the prompt the product sends. */
export type RequestKind = 'passport' | 'anchor_review' | 'sheet_review' | 'pack_review' | 'anchor' | 'sheet' | 'figure' | 'head';
export type FaultMatch = 'any' | 'image' | 'json' | 'qa' | RequestKind;

export interface FaultInput {
	kind: FaultKind;
	times?: number;
	match?: FaultMatch;
	/** For `slow`: how long to wait before answering normally. */
	delayMs?: number;
	/** For `qa_reject` / `sheet_reject`: the sticker numbers (1-based, in the pack) the review rejects. */
	stickers?: number[];
	/** For `blocked_prompt` (a BlockedReason) and `finish` (a FinishReason). */
	reason?: string;
}

export interface ArmedFault extends Required<Omit<FaultInput, 'delayMs' | 'stickers' | 'reason'>> {
	delayMs: number;
	stickers: number[];
	reason?: string;
	used: number;
}

export function armFault(input: FaultInput): ArmedFault {
	if (!(FAULT_KINDS as readonly string[]).includes(input.kind)) throw new Error(`unknown fault kind ${String(input.kind)}`);
	return { kind: input.kind, times: input.times ?? 1, match: input.match ?? 'any', delayMs: input.delayMs ?? 0, stickers: input.stickers ?? [], reason: input.reason, used: 0 };
}

export function matches(match: FaultMatch, request: RequestKind): boolean {
	if (match === 'any' || match === request) return true;
	if (match === 'image') return ['anchor', 'sheet', 'figure', 'head'].includes(request);
	if (match === 'json') return ['passport', 'anchor_review', 'sheet_review', 'pack_review'].includes(request);
	return match === 'qa' && request === 'pack_review';
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
