import { ApiError } from '@google/genai';
import { geminiModelFor, ModelMissing } from '../model-check.ts';
import { ProviderError, type CallUsage } from '../provider.ts';
import { accessProblem, detailsOf, readGoogleStatus, type GoogleStatus } from './gemini-status.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * Gemini's errors in the queue's terms, read from the google.rpc.Status body the SDK puts in the
 * ApiError's message (`{error: {code, message, status, details}}`):
 * - 429 RESOURCE_EXHAUSTED: the QuotaFailure's quotaId says which quota — "…PerDay…" is the day's
 *   (pause until midnight Pacific), any other (…PerMinute…) the minute's: wait the RetryInfo
 *   retryDelay and try again, never a job attempt;
 * - prepaid credit or billing problems (429/402/403 whose text speaks of billing, prepayment,
 *   credits or funds) → maintenance;
 * - the key, its permissions or the caller's region (400 INVALID_ARGUMENT with ErrorInfo reason
 *   API_KEY_INVALID / API_KEY_EXPIRED…, 403 PERMISSION_DENIED, 400 FAILED_PRECONDITION such as
 *   "User location is not supported for the API use.") → `access`: every call fails the same way
 *   until an operator fixes the setting, so the queue pauses;
 * - 404 NOT_FOUND names a model the API does not serve (unknown or retired) → model_missing;
 * - 5xx, timeouts and network errors pass.
 */
// Not plain "billing": every quota 429 says "please check your plan and billing details".
const BILLING =
	/prepay|credits? (are |is )?(depleted|exhausted)|insufficient funds|payment required|no funds|billing account|billing (is )?(disabled|not enabled)/i;
export function classifyGeminiError(error: unknown, usage: Partial<CallUsage>): ProviderError {
	if (error instanceof ApiError) {
		const status = error.status;
		const text = error.message ?? '';
		const body = readGoogleStatus(text);
		const withStatus = { ...usage, httpStatus: status };
		const quotaIds = detailsOf(body, 'QuotaFailure').flatMap((d) =>
			((d.violations as { quotaId?: string }[] | undefined) ?? []).map((v) => v.quotaId ?? '')
		);
		const quotaFailure = quotaIds.length > 0 || /QuotaFailure|quotaId/.test(text);
		if (!quotaFailure && BILLING.test(text) && (status === 429 || status === 402 || status === 403))
			return new ProviderError('billing', trim(text), withStatus);
		if (status === 429) {
			const perDay =
				quotaIds.some((id) => /PerDay/i.test(id)) ||
				(quotaIds.length === 0 && /PerDay|per_day|requests_per_day/i.test(text));
			return new ProviderError(
				perDay ? 'rate_day' : 'rate_minute',
				trim(text),
				withStatus,
				retryDelaySeconds(body, text)
			);
		}
		const access = accessProblem(status, body);
		if (access) return new ProviderError('access', `${access}: ${trim(body.message)}`, withStatus);
		if (status === 404 && usage.kind && usage.model)
			return new ModelMissing(geminiModelFor(usage.kind, usage.model), text, withStatus);
		if (status >= 500) return new ProviderError('server', trim(text), withStatus);
		return new ProviderError('bad_output', trim(text), withStatus);
	}
	const message = errorText(error, 1000);
	return new ProviderError('server', /abort|timeout/i.test(message) ? `timeout: ${message}` : message, usage);
}

/** RetryInfo's retryDelay ("37s", "0.5s") when the error carries it. */
function retryDelaySeconds(body: GoogleStatus, text: string): number | undefined {
	const delay = detailsOf(body, 'RetryInfo')
		.map((d) => String(d.retryDelay ?? ''))
		.find(Boolean);
	const match = /^(\d+(?:\.\d+)?)s$/.exec(delay ?? '') ?? /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
	return match ? Number(match[1]) : undefined;
}

function trim(text: string): string {
	return text.replace(/\s+/g, ' ').slice(0, 1000);
}
