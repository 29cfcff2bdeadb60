import { describe, expect, it } from 'vitest';
import { geminiListPrice } from './gemini-list-prices.ts';

describe('gemini list prices', () => {
	it('prices the vision models apart from the image model, by the day of the call', () => {
		expect(geminiListPrice('gemini-3.1-flash-image', new Date('2026-12-03T10:00:00Z'))).toEqual({
			inputPerMTok: 0.5,
			outputTextPerMTok: 3,
			outputImagePerMTok: 60
		});
		expect(geminiListPrice('gemini-3.5-flash', new Date('2026-12-03T10:00:00Z'))).toEqual({
			inputPerMTok: 1.5,
			outputTextPerMTok: 9,
			outputImagePerMTok: 0
		});
		expect(geminiListPrice('gemini-3.8-flash', new Date('2026-12-31T23:59:59Z'))?.inputPerMTok).toBe(0.75);
		expect(geminiListPrice('gemini-3.8-flash', new Date('2027-01-01T00:00:00Z'))).toEqual({
			inputPerMTok: 1.5,
			outputTextPerMTok: 7.5,
			outputImagePerMTok: 0
		});
	});

	it('takes a versioned answer at its model’s price and knows no unlisted model', () => {
		expect(geminiListPrice('gemini-3.8-flash-001', new Date('2026-12-03'))?.inputPerMTok).toBe(0.75);
		expect(geminiListPrice('gemini-3.1-flash-lite', new Date('2026-12-03'))).toBeUndefined();
	});
});
