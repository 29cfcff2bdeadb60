import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGemini, type FakeGemini } from './server.ts';

/**
 * The fixed latency per generate call, through a sleep the spec holds and releases: the answer
 * cannot leave before the sleep it waits on is released, so no clock is read and nothing is timed.
 */
class HeldSleeps {
	readonly asked: number[] = [];
	readonly #release: (() => void)[] = [];
	#onAsk: (() => void) | undefined;

	readonly sleep = (ms: number): Promise<void> => {
		this.asked.push(ms);
		this.#onAsk?.();
		return new Promise((resolve) => this.#release.push(resolve));
	};

	/** Resolves once `count` sleeps have been asked for. */
	async untilAsked(count: number): Promise<void> {
		while (this.asked.length < count) await new Promise<void>((resolve) => (this.#onAsk = resolve));
	}

	releaseAll(): void {
		for (const release of this.#release.splice(0)) release();
	}
}

let gemini: FakeGemini | undefined;
afterEach(async () => {
	await gemini?.close();
	gemini = undefined;
});

const PASSPORT = {
	contents: [{ role: 'user', parts: [{ text: 'Describe the person in the photo.' }] }],
	generationConfig: { responseMimeType: 'application/json' }
};
const generateContent = (url: string) =>
	fetch(`${url}/v1beta/models/text-model:generateContent`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(PASSPORT)
	});

describe('the fake Gemini’s fixed latency (latencyMs, FAKE_GEMINI_LATENCY_MS)', () => {
	it('holds every generateContent answer for latencyMs, each call on its own sleep', async () => {
		const sleeps = new HeldSleeps();
		gemini = await createFakeGemini({ models: ['text-model'], latencyMs: 2000, sleep: sleeps.sleep });
		let answered = 0;
		const calls = [generateContent(gemini.url), generateContent(gemini.url)].map((call) =>
			call.then((response) => (answered++, response))
		);
		await sleeps.untilAsked(2);
		expect(sleeps.asked).toEqual([2000, 2000]);
		expect(answered).toBe(0);
		sleeps.releaseAll();
		const responses = await Promise.all(calls);
		expect(responses.map((r) => r.status)).toEqual([200, 200]);
		expect(gemini.calls.map((c) => c.request)).toEqual(['passport', 'passport']);
	});

	it('answers model listings at once, and generate calls too when no latency is set', async () => {
		const sleeps = new HeldSleeps();
		gemini = await createFakeGemini({ models: ['text-model'], latencyMs: 2000, sleep: sleeps.sleep });
		expect((await fetch(`${gemini.url}/v1beta/models`)).status).toBe(200);
		expect(sleeps.asked).toEqual([]);
		await gemini.close();

		gemini = await createFakeGemini({ models: ['text-model'], sleep: sleeps.sleep });
		expect((await generateContent(gemini.url)).status).toBe(200);
		expect(sleeps.asked).toEqual([]);
	});
});
