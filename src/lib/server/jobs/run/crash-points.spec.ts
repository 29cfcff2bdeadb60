import { describe, expect, it } from 'vitest';
import { BOT_LIMITS } from '../../telegram/send-budget-rules.ts';
import { sendLimitsFor } from './crash-points.ts';

describe('sendLimitsFor: the crash tests’ short hold of a chat a killed worker left', () => {
	it('takes SEND_ANSWER_TIMEOUT_MS in a test build only', () => {
		expect(sendLimitsFor({ NODE_ENV: 'test', SEND_ANSWER_TIMEOUT_MS: '5000' })).toEqual({
			...BOT_LIMITS,
			answerTimeoutMs: 5000
		});
		expect(sendLimitsFor({ NODE_ENV: 'production', SEND_ANSWER_TIMEOUT_MS: '5000' })).toBe(BOT_LIMITS);
		expect(sendLimitsFor({ NODE_ENV: 'test' })).toBe(BOT_LIMITS);
		expect(sendLimitsFor({ NODE_ENV: 'test', SEND_ANSWER_TIMEOUT_MS: 'soon' })).toBe(BOT_LIMITS);
	});
});
