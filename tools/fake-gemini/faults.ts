/**
 * What the fake Gemini server can be told to do to the next matching requests, each the way the
 * real API does it. `times` counts the requests it applies to; `match` aims it at one kind of
 * request (see RequestKind); `reason` names the block or finish reason where one applies.
 *
 * Errors (google.rpc.Status bodies): quota_minute (its RetryInfo retryDelay is `delayMs`, 1 s when
 * not given), quota_day, billing, server; key_invalid (400 INVALID_ARGUMENT, ErrorInfo reason
 * API_KEY_INVALID), permission_denied (403 PERMISSION_DENIED), location (400 FAILED_PRECONDITION
 * "User location is not supported for the API use."); `slow` waits `delayMs` first (and stops
 * waiting when the client closes the connection). `forMs` makes a fault answer every matching
 * request for that long from when it is armed, however many (a quota's window), instead of `times`. Refusals (HTTP 200): blocked_prompt (promptFeedback.blockReason, no candidates),
 * finish (a candidate that stopped for `reason`: IMAGE_SAFETY, PROHIBITED_CONTENT, SAFETY,
 * RECITATION, NO_IMAGE, …, with no image), no_candidates (an empty list), text_only (an image
 * request answered with words), unreadable_json (a JSON request answered with a sentence). Answer shapes: chatty (thought parts, a draft image marked as a
 * thought, text before and after), fenced_json (JSON inside a ```json fence with sentences
 * around it), jpeg (image/jpeg instead of PNG), default_size (imageConfig ignored: the model's
 * default 1K, ratio from the references). Drawings: wrong_count (one figure too few: the last
 * cell left empty, or the cell `stickers[0]` names, 1-based in reading order),
 * extra_figure (one too many). Verdicts: qa_reject / sheet_reject reject the `stickers` (pack
 * numbers) in the pack review (qa_pack) or the sheet review (qa_sheet) that shows them.
 */
export const FAULT_KINDS = [
	'quota_minute',
	'quota_day',
	'billing',
	'server',
	'key_invalid',
	'permission_denied',
	'location',
	'slow',
	'blocked_prompt',
	'finish',
	'no_candidates',
	'text_only',
	'unreadable_json',
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
export type RequestKind =
	'passport' | 'anchor_review' | 'sheet_review' | 'pack_review' | 'anchor' | 'sheet' | 'figure' | 'head';
export type FaultMatch = 'any' | 'image' | 'json' | 'qa' | RequestKind;

export interface FaultInput {
	kind: FaultKind;
	times?: number;
	match?: FaultMatch;
	/** For `slow`: how long to wait before answering normally; for `quota_minute`: the retryDelay it names. */
	delayMs?: number;
	/** Applies to every matching request for this long from arming (instead of `times`). */
	forMs?: number;
	/** For `qa_reject` / `sheet_reject`: the sticker numbers (1-based, in the pack) the review rejects; for `wrong_count`: the cell left empty (1-based). */
	stickers?: number[];
	/** For `blocked_prompt` (a BlockedReason) and `finish` (a FinishReason). */
	reason?: string;
}

export interface ArmedFault extends Required<Omit<FaultInput, 'delayMs' | 'stickers' | 'reason' | 'forMs'>> {
	delayMs: number;
	/** With `forMs`: the fault applies until this time (ms since the epoch). */
	until?: number;
	stickers: number[];
	reason?: string;
	used: number;
}

export function armFault(input: FaultInput): ArmedFault {
	if (!(FAULT_KINDS as readonly string[]).includes(input.kind))
		throw new Error(`unknown fault kind ${String(input.kind)}`);
	const until = input.forMs !== undefined ? Date.now() + input.forMs : undefined;
	return {
		kind: input.kind,
		times: until ? Number.MAX_SAFE_INTEGER : (input.times ?? 1),
		match: input.match ?? 'any',
		delayMs: input.delayMs ?? 0,
		stickers: input.stickers ?? [],
		reason: input.reason,
		used: 0,
		until
	};
}

/** Whether the fault may still apply: uses left, and inside its window when it has one. */
export function live(fault: ArmedFault, now = Date.now()): boolean {
	return fault.used < fault.times && (fault.until === undefined || now < fault.until);
}

export function matches(match: FaultMatch, request: RequestKind): boolean {
	if (match === 'any' || match === request) return true;
	if (match === 'image') return ['anchor', 'sheet', 'figure', 'head'].includes(request);
	if (match === 'json') return ['passport', 'anchor_review', 'sheet_review', 'pack_review'].includes(request);
	return match === 'qa' && request === 'pack_review';
}

/** "38s", "0.25s": a google.protobuf.Duration as JSON writes it. */
function duration(ms: number): string {
	return `${Number((Math.max(0, ms) / 1000).toFixed(3))}s`;
}

export function errorBody(
	kind: FaultKind,
	model: string,
	fault?: ArmedFault
): { status: number; body: unknown } | null {
	const retryDelay = duration(fault?.delayMs || 1000);
	const quota = (quotaId: string, metric: string) => ({
		status: 429,
		body: {
			error: {
				code: 429,
				message: `You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: ${metric}, limit: 10, model: ${model}`,
				status: 'RESOURCE_EXHAUSTED',
				details: [
					{
						'@type': 'type.googleapis.com/google.rpc.QuotaFailure',
						violations: [{ quotaMetric: metric, quotaId, quotaDimensions: { model, location: 'global' } }]
					},
					{
						'@type': 'type.googleapis.com/google.rpc.Help',
						links: [
							{
								description: 'Learn more about Gemini API quotas',
								url: 'https://ai.google.dev/gemini-api/docs/rate-limits'
							}
						]
					},
					{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }
				]
			}
		}
	});
	switch (kind) {
		case 'quota_minute':
			return quota(
				'GenerateRequestsPerMinutePerProjectPerModel',
				'generativelanguage.googleapis.com/generate_content_requests_per_minute'
			);
		case 'quota_day':
			return quota(
				'GenerateRequestsPerDayPerProjectPerModel',
				'generativelanguage.googleapis.com/generate_content_requests_per_day'
			);
		case 'billing':
			return {
				status: 429,
				body: {
					error: {
						code: 429,
						message:
							'Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to manage your project and billing.',
						status: 'RESOURCE_EXHAUSTED'
					}
				}
			};
		case 'server':
			return {
				status: 503,
				body: {
					error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' }
				}
			};
		case 'key_invalid':
			return {
				status: 400,
				body: {
					error: {
						code: 400,
						message: 'API key not valid. Please pass a valid API key.',
						status: 'INVALID_ARGUMENT',
						details: [
							errorInfo('API_KEY_INVALID'),
							{
								'@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
								locale: 'en-US',
								message: 'API key not valid. Please pass a valid API key.'
							}
						]
					}
				}
			};
		case 'permission_denied':
			return {
				status: 403,
				body: {
					error: {
						code: 403,
						message: "Your API key doesn't have the required permissions.",
						status: 'PERMISSION_DENIED'
					}
				}
			};
		case 'location':
			return {
				status: 400,
				body: {
					error: {
						code: 400,
						message: 'User location is not supported for the API use.',
						status: 'FAILED_PRECONDITION'
					}
				}
			};
		default:
			return null;
	}
}

function errorInfo(reason: string): Record<string, unknown> {
	return {
		'@type': 'type.googleapis.com/google.rpc.ErrorInfo',
		reason,
		domain: 'googleapis.com',
		metadata: { service: 'generativelanguage.googleapis.com' }
	};
}
