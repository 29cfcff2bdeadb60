import type { Config } from '../config/config.ts';
import { geminiListPrice } from '../spend/gemini-list-prices.ts';
import type { Prices, TokenPrices } from '../spend/usage-recorder.ts';
import { createOfflineProvider } from './offline/offline.provider.ts';
import type { ImageProvider, ProviderName } from './provider.ts';

/** A provider with the prices its calls are costed at. */
export interface PricedProvider {
	provider: ImageProvider;
	prices: Prices;
}

/** The provider IMAGE_PROVIDER names (or another one, for IMAGE_PROVIDER_FALLBACK). */
export async function createImageProvider(
	config: Config,
	name: ProviderName = config.IMAGE_PROVIDER
): Promise<ImageProvider> {
	switch (name) {
		case 'offline':
			return createOfflineProvider();
		case 'gemini': {
			const { createGeminiProvider } = await import('./gemini/gemini.provider.ts');
			return createGeminiProvider({
				apiKey: config.GEMINI_API_KEY ?? '',
				baseUrl: config.GEMINI_BASE_URL,
				imageModel: config.GEMINI_IMAGE_MODEL,
				visionModel: config.GEMINI_VISION_MODEL,
				timeoutMs: config.GEMINI_TIMEOUT_SECONDS * 1000
			});
		}
		case 'openai': {
			const { createOpenAiProvider } = await import('./openai/openai.provider.ts');
			return createOpenAiProvider({
				apiKey: config.OPENAI_API_KEY ?? '',
				baseUrl: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
				model: config.OPENAI_IMAGE_MODEL,
				pricePerMTokImageOut: config.OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK
			});
		}
	}
}

/** IMAGE_PROVIDER_FALLBACK, when set: takes over a job whose provider cannot serve it. */
export async function createFallbackProvider(config: Config): Promise<PricedProvider | undefined> {
	const name = config.IMAGE_PROVIDER_FALLBACK;
	if (!name) return undefined;
	return { provider: await createImageProvider(config, name), prices: pricesFor(config, name) };
}

/**
 * The prices a provider's calls are costed at. Gemini: each call at the price of the model that
 * answered — the operator's GEMINI_PRICE_* (image model) or GEMINI_VISION_PRICE_* (vision model)
 * when set, else Google's list price of that model on the day; a model neither knows is costed as
 * the configured model of its kind (an unlisted vision model at the dearest Flash price, so spend is
 * never under-reported).
 */
export function pricesFor(config: Config, name: ProviderName = config.IMAGE_PROVIDER, at: Date = new Date()): Prices {
	if (name === 'offline') return { inputPerMTok: 0, outputTextPerMTok: 0, outputImagePerMTok: 0 };
	if (name === 'openai')
		return {
			inputPerMTok: config.OPENAI_PRICE_INPUT_PER_MTOK,
			outputTextPerMTok: 0,
			outputImagePerMTok: config.OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK
		};
	const imageList = geminiListPrice(config.GEMINI_IMAGE_MODEL, at) ?? UNLISTED_IMAGE;
	const visionList = geminiListPrice(config.GEMINI_VISION_MODEL, at) ?? UNLISTED_VISION;
	const image: TokenPrices = {
		inputPerMTok: config.GEMINI_PRICE_INPUT_PER_MTOK ?? imageList.inputPerMTok,
		outputTextPerMTok: config.GEMINI_PRICE_OUTPUT_TEXT_PER_MTOK ?? imageList.outputTextPerMTok,
		outputImagePerMTok: config.GEMINI_PRICE_OUTPUT_IMAGE_PER_MTOK ?? imageList.outputImagePerMTok
	};
	const vision: TokenPrices = {
		inputPerMTok: config.GEMINI_VISION_PRICE_INPUT_PER_MTOK ?? visionList.inputPerMTok,
		outputTextPerMTok: config.GEMINI_VISION_PRICE_OUTPUT_PER_MTOK ?? visionList.outputTextPerMTok,
		outputImagePerMTok: 0
	};
	const imageSet = [
		config.GEMINI_PRICE_INPUT_PER_MTOK,
		config.GEMINI_PRICE_OUTPUT_TEXT_PER_MTOK,
		config.GEMINI_PRICE_OUTPUT_IMAGE_PER_MTOK
	].some((p) => p !== undefined);
	const visionSet = [config.GEMINI_VISION_PRICE_INPUT_PER_MTOK, config.GEMINI_VISION_PRICE_OUTPUT_PER_MTOK].some(
		(p) => p !== undefined
	);
	return {
		...image,
		byModel: {
			...(imageSet ? { [config.GEMINI_IMAGE_MODEL]: image } : {}),
			...(visionSet ? { [config.GEMINI_VISION_MODEL]: vision } : {})
		},
		listPrice: geminiListPrice,
		byKind: { image, vision, qa: vision }
	};
}

/** Unlisted models: Gemini 3.1 Flash Image's price for images, Gemini 3.5 Flash's (the dearest Flash) for vision. */
const UNLISTED_IMAGE: TokenPrices = { inputPerMTok: 0.5, outputTextPerMTok: 3, outputImagePerMTok: 60 };
const UNLISTED_VISION: TokenPrices = { inputPerMTok: 1.5, outputTextPerMTok: 9, outputImagePerMTok: 0 };
