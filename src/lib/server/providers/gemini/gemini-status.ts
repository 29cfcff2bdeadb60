/**
 * The google.rpc.Status body of a Gemini API error, as the SDK hands it over (the body as JSON text
 * in ApiError.message): `{error: {code, message, status, details}}` with typed details
 * (google.rpc.ErrorInfo, QuotaFailure, RetryInfo, …). Kept apart from the error classes so the
 * model check reads access refusals the same way without importing the pipeline's errors.
 */

/** ErrorInfo reasons of a key the API will not take (google.rpc.ErrorInfo on generativelanguage.googleapis.com). */
const KEY_REASONS =
	/^API_KEY_(INVALID|EXPIRED|SERVICE_BLOCKED|HTTP_REFERRER_BLOCKED|IP_ADDRESS_BLOCKED|ANDROID_APP_BLOCKED|IOS_APP_BLOCKED)$|^(CONSUMER_SUSPENDED|SERVICE_DISABLED|ACCESS_TOKEN_SCOPE_INSUFFICIENT)$/;

export interface GoogleStatus {
	code?: number;
	message: string;
	status?: string;
	details: Record<string, unknown>[];
}

/** The google.rpc.Status in an ApiError's message (the SDK sends the body as JSON text). */
export function readGoogleStatus(text: string): GoogleStatus {
	try {
		const body = JSON.parse(text) as {
			error?: { code?: number; message?: string; status?: string; details?: unknown };
		};
		const error = body.error ?? {};
		return {
			code: error.code,
			message: error.message ?? text,
			status: error.status,
			details: Array.isArray(error.details) ? (error.details as Record<string, unknown>[]) : []
		};
	} catch {
		return { message: text, details: [] };
	}
}

/**
 * What is wrong with the access, when the error says the key, its permissions or the caller's
 * location: a sentence naming what the operator must change. Undefined for any other error.
 */
export function accessProblem(status: number, body: GoogleStatus): string | undefined {
	const reason = detailsOf(body, 'ErrorInfo')
		.map((d) => String(d.reason ?? ''))
		.find(Boolean);
	if (reason && KEY_REASONS.test(reason))
		return `gemini refused the API key (${reason}): set GEMINI_API_KEY to a valid key of a project with the Gemini API enabled`;
	if (status === 400 && /API key not valid/i.test(body.message))
		return 'gemini refused the API key (API_KEY_INVALID): set GEMINI_API_KEY to a valid key of a project with the Gemini API enabled';
	if (status === 403 || body.status === 'PERMISSION_DENIED')
		return "gemini denied access (PERMISSION_DENIED): the API key's project lacks permission for the Gemini API";
	if (body.status === 'FAILED_PRECONDITION' && /location|country|region/i.test(body.message))
		return 'gemini does not serve this location (FAILED_PRECONDITION): the worker must call from a supported region, or the project needs billing enabled';
	return undefined;
}

export function detailsOf(body: GoogleStatus, type: string): Record<string, unknown>[] {
	return body.details.filter((d) => String(d['@type'] ?? '').endsWith(`google.rpc.${type}`));
}
