import type { GenerateContentResponse } from '@google/genai';
import { ProviderError, type CallUsage } from '../provider.ts';

/**
 * An answer that stopped short, in the queue's terms. The prompt blocked (promptFeedback.blockReason),
 * no candidate at all, or a candidate that finished for a reason other than STOP:
 * - refused (permanent — no wording of ours changes it): PROHIBITED_CONTENT, IMAGE_PROHIBITED_CONTENT,
 *   BLOCKLIST, SPII, and a prompt blocked for PROHIBITED_CONTENT or BLOCKLIST;
 * - blocked (asked once more, softened): SAFETY, IMAGE_SAFETY, RECITATION, IMAGE_RECITATION, NO_IMAGE,
 *   IMAGE_OTHER, OTHER, LANGUAGE, any other prompt block, and an empty candidate list;
 * - bad_output: the rest (MAX_TOKENS, malformed tool calls) — the attempt fails.
 * The message starts "refused (REASON)" / "blocked (REASON)", which the console reads back.
 */
const REFUSED = new Set(['PROHIBITED_CONTENT', 'IMAGE_PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII']);
const BLOCKED = new Set([
	'SAFETY',
	'IMAGE_SAFETY',
	'RECITATION',
	'IMAGE_RECITATION',
	'NO_IMAGE',
	'IMAGE_OTHER',
	'OTHER',
	'LANGUAGE'
]);
const FINISHED = new Set(['STOP', 'FINISH_REASON_UNSPECIFIED']);

export function refusalOf(response: GenerateContentResponse, usage: Partial<CallUsage>): ProviderError | null {
	const blockReason = response.promptFeedback?.blockReason;
	if (blockReason) {
		const why = `${response.promptFeedback?.blockReasonMessage ?? 'the prompt was blocked'}`;
		return new ProviderError(
			REFUSED.has(String(blockReason)) ? 'refused' : 'blocked',
			`${REFUSED.has(String(blockReason)) ? 'refused' : 'blocked'} (${blockReason}): ${why}`,
			usage
		);
	}
	const candidate = response.candidates?.[0];
	if (!candidate)
		return new ProviderError('blocked', 'blocked (NO_CANDIDATES): the model returned no candidate', usage);
	const reason = candidate.finishReason ? String(candidate.finishReason) : undefined;
	if (!reason || FINISHED.has(reason)) return null;
	const said = candidate.finishMessage ? `: ${candidate.finishMessage}` : '';
	if (REFUSED.has(reason)) return new ProviderError('refused', `refused (${reason})${said}`, usage);
	if (BLOCKED.has(reason)) return new ProviderError('blocked', `blocked (${reason})${said}`, usage);
	return new ProviderError('bad_output', `the model stopped early (${reason})${said}`, usage);
}

/** What a refusal message says: its failure and reason, for the console (null for any other error text). */
export function readRefusal(
	message: string | null | undefined
): { failure: 'blocked' | 'refused'; reason: string } | null {
	const match = /^(blocked|refused) \(([A-Z_]+)\)/.exec(message ?? '');
	return match ? { failure: match[1] as 'blocked' | 'refused', reason: match[2]! } : null;
}
