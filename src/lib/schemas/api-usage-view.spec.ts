import { describe, expect, it } from 'vitest';
import { providerAnswerWords } from './api-usage-view.ts';

describe('providerAnswerWords', () => {
	it('says what a failed image model call meant, without the HTTP code', () => {
		expect(providerAnswerWords(429)).toBe('the provider said we sent too many requests');
		expect(providerAnswerWords(403)).toBe('the provider refused our key');
		expect(providerAnswerWords(404)).toBe('the provider does not know this model');
		expect(providerAnswerWords(503)).toBe('the provider had a fault on its side');
		expect(providerAnswerWords(400)).toBe('the provider refused the request');
		for (const code of [400, 401, 403, 404, 429, 500, 503]) expect(providerAnswerWords(code)).not.toMatch(/\d/);
	});
});
