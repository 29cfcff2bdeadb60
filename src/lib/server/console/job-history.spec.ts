import { describe, expect, it } from 'vitest';
import { buildHistory } from './job-history.ts';

const job = {
	createdAt: '2026-12-03T14:00:00.000Z',
	packCreatedAt: null,
	linkSentAt: null,
	delayNoticeSentAt: null,
	status: 'failed',
	updatedAt: '2026-12-03T14:20:00.000Z'
};

describe('a job’s events in words', () => {
	it('names stages, console actions with their details and provider failures without stored names', () => {
		const events = buildHistory(
			job,
			[
				{
					ts: '2026-12-03T14:30:00.000Z',
					actor: 'oskar',
					action: 'retry_job',
					details: JSON.stringify({ previousError: 'deadline passed', previousAttempts: 3 })
				}
			],
			[
				{ stage: 'queued', at: '2026-12-03T14:00:00.000Z' },
				{ stage: 'anchor_verify', at: '2026-12-03T14:01:00.000Z' }
			],
			[
				{
					id: 1,
					ts: '2026-12-03T14:02:00.000Z',
					stage: 'qa_sheet',
					kind: 'image',
					provider: 'gemini',
					model: 'm',
					ok: false,
					httpStatus: 429,
					error: '429 RESOURCE_EXHAUSTED',
					images: 0,
					promptTokens: null,
					outputTokens: null,
					imageTokens: null,
					thoughtsTokens: null,
					resolution: null,
					costUsd: 0
				}
			]
		);
		const words = events.map((e) => e.what);
		expect(words).toContain('Checking the likeness');
		expect(words).toContain(
			'image model call failed while checking the stickers: the provider said we sent too many requests'
		);
		expect(words).toContain(
			'job retried by oskar: after 3 attempts; it had failed: it took longer than the time limit, so it was stopped'
		);
		expect(words.join(' ')).not.toMatch(/[{}]|\b[a-z]+_[a-z_]+\b|\b429\b/);
	});
});
