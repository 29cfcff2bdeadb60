import { describe, expect, it } from 'vitest';
import { summarisePackCost } from './pack-cost.ts';

describe('the cost of one pack', () => {
	it('counts every call, but only answered calls make images, tokens and dollars', () => {
		const cost = summarisePackCost([
			{
				ok: true,
				images: 0,
				promptTokens: 1000,
				outputTokens: 60,
				imageTokens: 0,
				thoughtsTokens: 24,
				costUsd: 0.00075
			},
			{
				ok: true,
				images: 1,
				promptTokens: 3400,
				outputTokens: 1680,
				imageTokens: 1680,
				thoughtsTokens: 0,
				costUsd: 0.1025
			},
			{
				ok: false,
				images: 0,
				promptTokens: 3400,
				outputTokens: null,
				imageTokens: null,
				thoughtsTokens: null,
				costUsd: 0
			}
		]);
		expect(cost).toEqual({
			calls: 3,
			failedCalls: 1,
			imageGenerations: 1,
			promptTokens: 4400,
			textTokens: 60,
			imageTokens: 1680,
			thoughtsTokens: 24,
			totalTokens: 6164,
			usd: 0.10325
		});
	});
});
