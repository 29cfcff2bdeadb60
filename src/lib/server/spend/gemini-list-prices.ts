import type { TokenPrices } from './usage-recorder.ts';

/**
 * Google's list prices per model (Gemini Developer API pricing page, paid tier, USD per million
 * tokens; thinking is billed as text output), so each call is costed at the price of the model that
 * answered it (`modelVersion`), not at the image model's. A price that changes on a known date has
 * one row per period. A model id is matched by its longest listed prefix, so a versioned answer
 * ("gemini-3.8-flash-001") takes its model's price.
 */
interface ListPrice extends TokenPrices {
	/** First day (UTC) of this price; the earliest row has none. */
	from?: string;
}

export const GEMINI_LIST_PRICES: Record<string, ListPrice[]> = {
	// Gemini 3.1 Flash Image: $60 per million image tokens (1120 a 1K image, 1680 a 2K one).
	'gemini-3.1-flash-image': [{ inputPerMTok: 0.5, outputTextPerMTok: 3, outputImagePerMTok: 60 }],
	'gemini-3-pro-image': [{ inputPerMTok: 2, outputTextPerMTok: 12, outputImagePerMTok: 120 }],
	// Deprecated: answered by gemini-3.8-flash, whose price applies then.
	'gemini-3.5-flash': [{ inputPerMTok: 1.5, outputTextPerMTok: 9, outputImagePerMTok: 0 }],
	// Half price through 31 December 2026, then $1.50 / $7.50.
	'gemini-3.7-flash': [
		{ inputPerMTok: 0.75, outputTextPerMTok: 3.75, outputImagePerMTok: 0 },
		{ from: '2027-01-01', inputPerMTok: 1.5, outputTextPerMTok: 7.5, outputImagePerMTok: 0 }
	],
	'gemini-3.8-flash': [
		{ inputPerMTok: 0.75, outputTextPerMTok: 3.75, outputImagePerMTok: 0 },
		{ from: '2027-01-01', inputPerMTok: 1.5, outputTextPerMTok: 7.5, outputImagePerMTok: 0 }
	]
};

/** The list price of `model` on `at`, or undefined for a model not listed here. */
export function geminiListPrice(model: string, at: Date): TokenPrices | undefined {
	const key = Object.keys(GEMINI_LIST_PRICES)
		.filter((id) => model === id || model.startsWith(`${id}-`))
		.sort((a, b) => b.length - a.length)[0];
	if (!key) return undefined;
	const day = at.toISOString().slice(0, 10);
	const row = GEMINI_LIST_PRICES[key]!.filter((p) => !p.from || p.from <= day).at(-1)!;
	return {
		inputPerMTok: row.inputPerMTok,
		outputTextPerMTok: row.outputTextPerMTok,
		outputImagePerMTok: row.outputImagePerMTok
	};
}
