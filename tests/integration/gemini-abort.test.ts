import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SHEET_KEY } from '../../src/lib/server/media/sheet-key.ts';
import { defaultOutfitSnapshot } from '../../src/lib/server/outfits/default-outfit.ts';
import { parseConfig } from '../../src/lib/server/config/config.ts';
import { createGeminiProvider } from '../../src/lib/server/providers/gemini/gemini.provider.ts';
import { ProviderError, type JobBrief } from '../../src/lib/server/providers/provider.ts';
import { createFakeGemini, type FakeGemini } from '../../tools/fake-gemini/server.ts';
import { DEFAULT_MODEL_IDS } from '../../tools/fake-gemini/models.ts';
import { PROJECT_ROOT } from '../helpers/node-process.ts';

/**
 * An aborted job's provider call stops: the job's signal reaches @google/genai (config.abortSignal),
 * which closes the connection — the fake Gemini sees it closed — and the call returns at once
 * instead of after the answer (a slow image takes a minute), recorded as billed at an estimate.
 */
describe('gemini call and the job abort', () => {
	let gemini: FakeGemini | undefined;
	afterEach(async () => gemini?.close());

	function briefWith(signal: AbortSignal): JobBrief {
		return {
			jobId: 1,
			selfie: Buffer.from('selfie'),
			faceCrop: Buffer.alloc(0),
			outfit: defaultOutfitSnapshot('tuxedo'),
			captions: [],
			artStyle: 'cartoon',
			locale: 'en',
			sheetKey: DEFAULT_SHEET_KEY,
			signal
		};
	}

	it('closes the connection and returns promptly when the job is aborted mid-call', async () => {
		gemini = await createFakeGemini({ apiKey: 'k' });
		// The answer would take 10 minutes: only the abort can end the call within the test's limit.
		gemini.control.inject({ kind: 'slow', match: 'passport', delayMs: 600_000 });
		const provider = createGeminiProvider({
			apiKey: 'k',
			baseUrl: gemini.url,
			imageModel: 'gemini-3.1-flash-image',
			visionModel: 'gemini-3.8-flash',
			timeoutMs: 60_000
		});
		const job = new AbortController();
		const call = provider.describeAppearance(briefWith(job.signal));
		const outcome = call.then(
			() => 'answered',
			(error: unknown) => error
		);
		while (gemini.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
		const abortedAt = Date.now();
		job.abort(new Error('worker stopping'));
		// Ended by the abort: the answer would have taken 10 minutes (no stopwatch, the machine may be busy).
		const error = await outcome;
		expect(error).toBeInstanceOf(ProviderError);
		expect((error as ProviderError).message).toMatch(/^aborted: .*cost estimated/);
		// Google finishes and bills a call it took: recorded at an estimate (the selfie in, the JSON out unknown).
		expect((error as ProviderError).usage).toMatchObject({
			kind: 'vision',
			model: 'gemini-3.8-flash',
			billed: true,
			estimated: true,
			promptTokens: expect.any(Number)
		});
		// The fake sees the connection close on its own turn of the event loop: waited for, not timed.
		while (gemini.calls[0]!.closedByClientAt === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(gemini.calls[0]!.closedByClientAt).toBeGreaterThanOrEqual(abortedAt);
	});

	it('the default models are current: served under their own ids and listed by the models API', () => {
		const config = parseConfig({ NODE_ENV: 'test' }, PROJECT_ROOT);
		expect(config.GEMINI_IMAGE_MODEL).toBe('gemini-3.1-flash-image');
		expect(config.GEMINI_VISION_MODEL).toBe('gemini-3.8-flash');
		expect(DEFAULT_MODEL_IDS).toEqual(expect.arrayContaining([config.GEMINI_IMAGE_MODEL, config.GEMINI_VISION_MODEL]));
	});
});
