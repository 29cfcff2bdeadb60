import { ApiError } from '@google/genai';
import { geminiModelFor, ModelMissing } from '../model-check.ts';
import { ProviderError, type CallUsage } from '../provider.ts';

/**
 * Gemini's errors in the queue's terms. A 429 RESOURCE_EXHAUSTED carries a quotaId:
 * "…PerDay…" → the daily quota (pause until midnight Pacific), anything else per-minute (retry).
 * Prepaid credit or billing problems (429/402/403 whose text speaks of billing, prepayment, credits
 * or funds) → maintenance. A 404 NOT_FOUND names a model the API does not serve (unknown or
 * retired) → model_missing, never retried. 5xx, timeouts and network errors pass.
 */
// Not plain "billing": every quota 429 says "please check your plan and billing details".
const BILLING = /prepay|credits? (are |is )?(depleted|exhausted)|insufficient funds|payment required|no funds|billing account|billing (is )?(disabled|not enabled)/i;

export function classifyGeminiError(error: unknown, usage: Partial<CallUsage>): ProviderError {
	if (error instanceof ApiError) {
		const status = error.status;
		const text = error.message ?? '';
		const withStatus = { ...usage, httpStatus: status };
		const quotaFailure = /QuotaFailure|quotaId/.test(text);
		if (!quotaFailure && BILLING.test(text) && (status === 429 || status === 402 || status === 403)) return new ProviderError('billing', trim(text), withStatus);
		if (status === 429) {
			const perDay = /PerDay|per_day|requests_per_day/i.test(text);
			return new ProviderError(perDay ? 'rate_day' : 'rate_minute', trim(text), withStatus, retryDelaySeconds(text));
		}
		if (status === 404 && usage.kind && usage.model) return new ModelMissing(geminiModelFor(usage.kind, usage.model), text, withStatus);
		if (status >= 500) return new ProviderError('server', trim(text), withStatus);
		return new ProviderError('bad_output', trim(text), withStatus);
	}
	const message = error instanceof Error ? error.message : String(error);
	return new ProviderError('server', /abort|timeout/i.test(message) ? `timeout: ${message}` : message, usage);
}

/** RetryInfo's retryDelay ("37s") when the error carries it. */
function retryDelaySeconds(text: string): number | undefined {
	const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
	return match ? Number(match[1]) : undefined;
}

function trim(text: string): string {
	return text.replace(/\s+/g, ' ').slice(0, 1000);
}
