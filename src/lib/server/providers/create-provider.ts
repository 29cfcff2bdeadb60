import type { Config } from '../config/config.ts';
import type { Prices } from '../spend/usage-recorder.ts';
import { createOfflineProvider } from './offline/offline.provider.ts';
import type { ImageProvider } from './provider.ts';

/** The provider IMAGE_PROVIDER names, and the prices its calls are costed at. */
export async function createImageProvider(config: Config): Promise<ImageProvider> {
	switch (config.IMAGE_PROVIDER) {
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

export function pricesFor(config: Config): Prices {
	if (config.IMAGE_PROVIDER === 'openai') return { inputPerMTok: config.OPENAI_PRICE_INPUT_PER_MTOK, outputTextPerMTok: 0, outputImagePerMTok: config.OPENAI_PRICE_OUTPUT_IMAGE_PER_MTOK };
	return { inputPerMTok: config.GEMINI_PRICE_INPUT_PER_MTOK, outputTextPerMTok: config.GEMINI_PRICE_OUTPUT_TEXT_PER_MTOK, outputImagePerMTok: config.GEMINI_PRICE_OUTPUT_IMAGE_PER_MTOK };
}
