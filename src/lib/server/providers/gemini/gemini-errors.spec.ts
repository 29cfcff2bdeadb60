import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { classifyGeminiError } from './gemini-errors.ts';

/** The SDK puts the google.rpc.Status body, as JSON text, in ApiError.message. */
function apiError(status: number, error: Record<string, unknown>): ApiError {
	return new ApiError({ message: JSON.stringify({ error: { code: status, ...error } }), status });
}

const quota = (quotaId: string, retryDelay: string) =>
	apiError(429, {
		message: 'You exceeded your current quota, please check your plan and billing details.',
		status: 'RESOURCE_EXHAUSTED',
		details: [
			{
				'@type': 'type.googleapis.com/google.rpc.QuotaFailure',
				violations: [
					{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count', quotaId }
				]
			},
			{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }
		]
	});

describe('classifyGeminiError', () => {
	it('reads the quota from QuotaFailure and the delay from RetryInfo', () => {
		const minute = classifyGeminiError(quota('GenerateContentPaidTierInputTokensPerModelPerMinute', '38s'), {
			kind: 'image',
			model: 'm'
		});
		expect([minute.failure, minute.retryAfterSeconds]).toEqual(['rate_minute', 38]);
		expect(classifyGeminiError(quota('GenerateRequestsPerDayPerProjectPerModel', '0.5s'), {}).failure).toBe('rate_day');
		expect(
			classifyGeminiError(quota('GenerateRequestsPerMinutePerProjectPerModel', '0.25s'), {}).retryAfterSeconds
		).toBe(0.25);
	});

	it('a key, permission or location refusal is `access`, naming what to change', () => {
		const key = classifyGeminiError(
			apiError(400, {
				message: 'API key not valid. Please pass a valid API key.',
				status: 'INVALID_ARGUMENT',
				details: [
					{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }
				]
			}),
			{}
		);
		expect(key.failure).toBe('access');
		expect(key.message).toMatch(/API_KEY_INVALID.*set GEMINI_API_KEY/);
		expect(
			classifyGeminiError(
				apiError(403, { message: "Your API key doesn't have the required permissions.", status: 'PERMISSION_DENIED' }),
				{}
			).failure
		).toBe('access');
		const region = classifyGeminiError(
			apiError(400, { message: 'User location is not supported for the API use.', status: 'FAILED_PRECONDITION' }),
			{}
		);
		expect(region.failure).toBe('access');
		expect(region.message).toMatch(/location/);
	});

	it('billing stays billing, a bad request stays bad output', () => {
		expect(
			classifyGeminiError(
				apiError(429, { message: 'Your prepayment credits are depleted.', status: 'RESOURCE_EXHAUSTED' }),
				{}
			).failure
		).toBe('billing');
		expect(
			classifyGeminiError(
				apiError(403, { message: 'Billing account is disabled for this project.', status: 'PERMISSION_DENIED' }),
				{}
			).failure
		).toBe('billing');
		expect(
			classifyGeminiError(apiError(400, { message: 'Invalid image size "3K".', status: 'INVALID_ARGUMENT' }), {})
				.failure
		).toBe('bad_output');
	});
});
