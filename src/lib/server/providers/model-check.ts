import { ApiError, GoogleGenAI } from '@google/genai';
import type { Config } from '../config/config.ts';
import { modelMissingSentence, type ConfiguredModel } from './configured-model.ts';
import { ProviderError, type CallUsage, type UsageKind } from './provider.ts';
import { accessProblem, readGoogleStatus } from './gemini/gemini-status.ts';
import { errorText } from '../errors/error-text.ts';
import { openAiAccessProblem } from './openai/openai-access.ts';

/**
 * Whether the models the settings name exist at the provider. A wrong or retired id fails every
 * call of that kind, so the worker asks at start and every hour (Gemini `models.get`, OpenAI
 * `GET /models/{id}`) instead of finding out on the first guest; a 404 to a drawing call mid-event
 * is the same fact (`ModelMissing`). Only a 404 says "missing": a network fault or a 5xx says
 * nothing about the model, so it never pauses the queue.
 */
/** `denied`: the provider refused our access (key, permission, location); `detail` says what to change. */
export type ModelAnswer = 'ok' | 'missing' | 'unreachable' | 'denied';

export interface ModelVerdict extends ConfiguredModel {
	answer: ModelAnswer;
	detail?: string;
}

/** A configured model the provider does not serve; the message names the setting to change. */
export class ModelMissing extends ProviderError {
	constructor(
		readonly model: ConfiguredModel,
		detail: string,
		usage: Partial<CallUsage> = {}
	) {
		super('model_missing', `${modelMissingSentence(model)} (${detail.replace(/\s+/g, ' ').slice(0, 300)})`, usage);
		this.name = 'ModelMissing';
	}
}

/** The Gemini setting a call of this kind uses: images draw with the image model, the rest is vision. */
export function geminiModelFor(kind: UsageKind, model: string): ConfiguredModel {
	return { provider: 'gemini', setting: kind === 'image' ? 'GEMINI_IMAGE_MODEL' : 'GEMINI_VISION_MODEL', model };
}

/** Every model the worker would call: of IMAGE_PROVIDER and of IMAGE_PROVIDER_FALLBACK. */
export function configuredModels(config: Config): ConfiguredModel[] {
	const providers = new Set([config.IMAGE_PROVIDER, config.IMAGE_PROVIDER_FALLBACK].filter((p) => p !== undefined));
	const models: ConfiguredModel[] = [];
	if (providers.has('gemini')) {
		models.push({ provider: 'gemini', setting: 'GEMINI_IMAGE_MODEL', model: config.GEMINI_IMAGE_MODEL });
		models.push({ provider: 'gemini', setting: 'GEMINI_VISION_MODEL', model: config.GEMINI_VISION_MODEL });
	}
	if (providers.has('openai'))
		models.push({ provider: 'openai', setting: 'OPENAI_IMAGE_MODEL', model: config.OPENAI_IMAGE_MODEL });
	return models;
}

export async function checkConfiguredModels(config: Config): Promise<ModelVerdict[]> {
	return Promise.all(
		configuredModels(config).map((model) =>
			model.provider === 'gemini' ? askGemini(config, model) : askOpenAi(config, model)
		)
	);
}

async function askGemini(config: Config, model: ConfiguredModel): Promise<ModelVerdict> {
	const ai = new GoogleGenAI({
		apiKey: config.GEMINI_API_KEY ?? '',
		httpOptions: {
			...(config.GEMINI_BASE_URL ? { baseUrl: config.GEMINI_BASE_URL } : {}),
			timeout: config.GEMINI_TIMEOUT_SECONDS * 1000,
			retryOptions: { attempts: 1 }
		}
	});
	try {
		await ai.models.get({ model: model.model });
		return { ...model, answer: 'ok' };
	} catch (error) {
		if (error instanceof ApiError && error.status === 404)
			return { ...model, answer: 'missing', detail: error.message };
		const denied = error instanceof ApiError ? accessProblem(error.status, readGoogleStatus(error.message)) : undefined;
		if (denied) return { ...model, answer: 'denied', detail: denied };
		return { ...model, answer: 'unreachable', detail: errorText(error) };
	}
}

async function askOpenAi(config: Config, model: ConfiguredModel): Promise<ModelVerdict> {
	const base = (config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, '');
	try {
		const response = await fetch(`${base}/models/${encodeURIComponent(model.model)}`, {
			headers: { authorization: `Bearer ${config.OPENAI_API_KEY ?? ''}` },
			signal: AbortSignal.timeout(30_000)
		});
		if (response.ok) return { ...model, answer: 'ok' };
		const text = await response.text();
		const error = readOpenAiError(text);
		const denied = openAiAccessProblem(response.status, error.code, error.message ?? text);
		if (denied) return { ...model, answer: 'denied', detail: denied };
		const detail = `HTTP ${response.status}: ${text.slice(0, 300)}`;
		return { ...model, answer: response.status === 404 ? 'missing' : 'unreachable', detail };
	} catch (error) {
		return { ...model, answer: 'unreachable', detail: errorText(error) };
	}
}

/** OpenAI's error body `{error: {message, code}}`, or nothing readable. */
function readOpenAiError(text: string): { message?: string; code?: string } {
	try {
		const error = (JSON.parse(text) as { error?: { message?: unknown; code?: unknown } }).error;
		return {
			message: typeof error?.message === 'string' ? error.message : undefined,
			code: typeof error?.code === 'string' ? error.code : undefined
		};
	} catch {
		return {};
	}
}
