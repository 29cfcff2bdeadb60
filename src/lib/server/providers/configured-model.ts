import type { ProviderName } from './provider.ts';

/**
 * A model the settings name, and the sentence that says it is missing. Apart from the check that
 * asks the provider (model-check.ts, which loads @google/genai), so the web process can show the
 * check's finding without loading the SDK.
 */
export type ModelSetting = 'GEMINI_IMAGE_MODEL' | 'GEMINI_VISION_MODEL' | 'OPENAI_IMAGE_MODEL';

export interface ConfiguredModel {
	provider: Exclude<ProviderName, 'offline'>;
	setting: ModelSetting;
	model: string;
}

export function modelMissingSentence(model: ConfiguredModel): string {
	return `${model.provider} does not know the model "${model.model}": set ${model.setting} to a model id the API lists`;
}
