import { describe, expect, it } from 'vitest';
import { useGeminiRuns } from './generation-gemini-harness.ts';

/**
 * Cost truth: every call is costed at the price of the model that answered it (its modelVersion),
 * and calls Google bills but we could not use — unreadable JSON, a text-only answer, a call
 * abandoned on timeout — are recorded at their cost, not at 0.
 */
describe('what each gemini call cost', () => {
	const start = useGeminiRuns('gen-gemini-cost-', { stillPacks: true });

	it('a deprecated vision id is recorded as the model that answered, at that model’s price (not the image model’s)', async () => {
		const { jobId, gemini, ...run } = await start([], { GEMINI_VISION_MODEL: 'gemini-3.5-flash' });
		expect(await run.finalStatus(jobId)).toBe('done');
		expect(gemini.calls[0]).toMatchObject({
			request: 'passport',
			model: 'gemini-3.5-flash',
			modelVersion: 'gemini-3.8-flash'
		});
		const rows = await run.usage(jobId);
		const passport = rows.find((r) => r.stage === 'passport')!;
		expect(passport).toMatchObject({ kind: 'vision', model: 'gemini-3.8-flash', outputTokens: 60, thoughtsTokens: 24 });
		// gemini-3.8-flash: $0.75 per million in, $3.75 text and thinking out (list price through 2026).
		expect(passport.estCostUsd).toBeCloseTo((passport.promptTokens! * 0.75 + (60 + 24) * 3.75) / 1e6, 6);
		const sheet = rows.find((r) => r.stage === 'sheet')!;
		expect(sheet).toMatchObject({ model: 'gemini-3.1-flash-image', imageTokens: 1680 });
		expect(sheet.estCostUsd).toBeCloseTo((sheet.promptTokens! * 0.5 + 1680 * 60) / 1e6, 6);
	}, 120_000);

	it('an operator’s GEMINI_VISION_PRICE_* wins over the list price', async () => {
		const { jobId, ...run } = await start([], {
			GEMINI_VISION_PRICE_INPUT_PER_MTOK: '2',
			GEMINI_VISION_PRICE_OUTPUT_PER_MTOK: '10'
		});
		expect(await run.finalStatus(jobId)).toBe('done');
		const passport = (await run.usage(jobId)).find((r) => r.stage === 'passport')!;
		expect(passport.estCostUsd).toBeCloseTo((passport.promptTokens! * 2 + 84 * 10) / 1e6, 6);
	}, 120_000);

	it('unreadable JSON is billed: the failed call is recorded at its tokens', async () => {
		const { jobId, ...run } = await start([{ kind: 'unreadable_json', match: 'passport' }]);
		expect(await run.finalStatus(jobId)).toBe('done');
		const [unreadable] = await run.usage(jobId);
		expect(unreadable).toMatchObject({
			stage: 'passport',
			ok: 0,
			httpStatus: 200,
			outputTokens: 18,
			thoughtsTokens: 24
		});
		expect(unreadable!.error).toMatch(/^unreadable answer/);
		expect(unreadable!.estCostUsd).toBeCloseTo((unreadable!.promptTokens! * 0.75 + (18 + 24) * 3.75) / 1e6, 6);
	}, 120_000);

	it('a call abandoned on timeout is recorded at an estimate of what Google bills for it', async () => {
		const { jobId, gemini, ...run } = await start([{ kind: 'slow', match: 'anchor', delayMs: 600_000 }], {
			GEMINI_TIMEOUT_SECONDS: '5'
		});
		expect(await run.finalStatus(jobId)).toBe('done');
		const abandoned = (await run.usage(jobId)).find((r) => r.stage === 'anchor')!;
		expect(abandoned).toMatchObject({
			ok: 0,
			kind: 'image',
			model: 'gemini-3.1-flash-image',
			imageTokens: 1120,
			images: 0
		});
		expect(abandoned.error).toMatch(/timeout.*billed by the provider, cost estimated/);
		expect(abandoned.estCostUsd).toBeCloseTo((abandoned.promptTokens! * 0.5 + 1120 * 60) / 1e6, 6);
		// The timeout closed the connection (the fake would have held the answer for 10 minutes).
		expect(gemini.calls.find((c) => c.request === 'anchor')!.closedByClientAt).toBeDefined();
	}, 120_000);
});
