import type { Config } from '../config/config.ts';
import type { Prices } from '../spend/usage-recorder.ts';
import { createOfflineProvider } from './offline/offline.provider.ts';
import type { ImageProvider, ProviderName } from './provider.ts';

/** A provider with the prices its calls are costed at. */
export interface PricedProvider {
	provider: ImageProvider;
	prices: Prices;
}

/** The provider IMAGE_PROVIDER names (or another one, for IMAGE_PROVIDER_FALLBACK). */
export async function createImageProvider(config: Config, name: ProviderName = config.IMAGE_PROVIDER): Promise<ImageProvider> {
	switch (name) {
		case 'offline':
			return createOfflineProvider();
		case 'gemini': {
			const { createGeminiProvider } = await import('./gemini/gemini.provider.ts');
			return createGeminiProvider({ apiKey: config.GEMINI_API_KEY ?? '', baseUrl: config.GEMINI_BASE_URL, imageModel: config.GEMINI_IMAGE_MODEL, visionModel: config.GEMINI_VISION_MODEL, timeoutMs: config.GEMINI_TIMEOUT_SECONDS * 1000 });
		}
		case 'openai': {
			const { createOpenAiProvider } = await import('./openai/openai.provider.ts');
			return createOpenAiProvider({ apiKey: config.OPENAI_API_KEY ?? '', baseUrl: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1', model: config.OPENAI_IMAGE_MODEL, pricePerMTokImageOut: config.OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK });
		}
	}
}

/** IMAGE_PROVIDER_FALLBACK, when set: takes over a job whose provider cannot serve it. */
export async function createFallbackProvider(config: Config): Promise<PricedProvider | undefined> {
	const name = config.IMAGE_PROVIDER_FALLBACK;
	if (!name) return undefined;
	return { provider: await createImageProvider(config, name), prices: pricesFor(config, name) };
}

export function pricesFor(config: Config, name: ProviderName = config.IMAGE_PROVIDER): Prices {
	if (name === 'offline') return { inputPerMTok: 0, outputTextPerMTok: 0, outputImagePerMTok: 0 };
	if (name === 'openai') return { inputPerMTok: config.OPENAI_PRICE_INPUT_PER_MTOK, outputTextPerMTok: 0, outputImagePerMTok: config.OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK };
	return { inputPerMTok: config.GEMINI_PRICE_INPUT_PER_MTOK, outputTextPerMTok: config.GEMINI_PRICE_OUTPUT_TEXT_PER_MTOK, outputImagePerMTok: config.GEMINI_PRICE_OUTPUT_IMAGE_PER_MTOK };
}
