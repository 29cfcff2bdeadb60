/**
 * The models endpoints as the Models API reference describes them: `GET /v1beta/models`
 * (`pageSize`, default 50, at most 1000; `pageToken`; answers `{models, nextPageToken}`) and
 * `GET /v1beta/models/{id}` (one Model), with 404 NOT_FOUND for a model that does not exist — also
 * what generateContent answers for one. Which ids exist is configurable; the default is a snapshot
 * of the models the deprecations page listed as current.
 */
export const DEFAULT_MODEL_IDS = [
	'gemini-3.1-flash-image',
	'gemini-3-pro-image',
	'gemini-3.8-flash',
	'gemini-3.7-flash',
	'gemini-3.5-flash',
	'gemini-3.1-flash-lite'
];

/**
 * Deprecated ids the API still takes but serves with their replacement: the answer's modelVersion
 * names the model that answered. gemini-3.5-flash is deprecated in favour of gemini-3.8-flash.
 */
export const DEFAULT_REDIRECTS: Record<string, string> = { 'gemini-3.5-flash': 'gemini-3.8-flash' };

export interface ModelResource {
	name: string;
	baseModelId: string;
	version: string;
	displayName: string;
	description: string;
	inputTokenLimit: number;
	outputTokenLimit: number;
	supportedGenerationMethods: string[];
	thinking: boolean;
	temperature: number;
	maxTemperature: number;
	topP: number;
	topK: number;
}

export function modelResource(id: string): ModelResource {
	const image = /image/.test(id);
	const version = /(\d+(?:\.\d+)?)/.exec(id)?.[1] ?? '1';
	return {
		name: `models/${id}`,
		baseModelId: id,
		version,
		displayName: id.replace(/^gemini-/, 'Gemini ').replace(/-/g, ' '),
		description: image
			? 'Fake image generation model (tools/fake-gemini).'
			: 'Fake multimodal text model (tools/fake-gemini).',
		inputTokenLimit: image ? 65_536 : 1_048_576,
		outputTokenLimit: image ? 32_768 : 65_536,
		supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
		thinking: true,
		temperature: 1,
		maxTemperature: 2,
		topP: 0.95,
		topK: 64
	};
}

export function listModels(ids: string[], query: URLSearchParams): { status: number; body: unknown } {
	const pageSize = Math.min(1000, Math.max(1, Number(query.get('pageSize') ?? 50) || 50));
	const token = query.get('pageToken');
	const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
	if (!Number.isInteger(offset) || offset < 0 || offset > ids.length) return invalidArgument('Invalid page token.');
	const page = ids.slice(offset, offset + pageSize).map(modelResource);
	const next =
		offset + pageSize < ids.length ? Buffer.from(String(offset + pageSize)).toString('base64url') : undefined;
	return { status: 200, body: { models: page, ...(next ? { nextPageToken: next } : {}) } };
}

export function getModel(ids: string[], id: string): { status: number; body: unknown } {
	return ids.includes(id)
		? { status: 200, body: modelResource(id) }
		: notFound(`models/${id} is not found for API version v1beta`);
}

/** What generateContent answers for a model that does not exist. */
export function unknownModel(id: string): { status: number; body: unknown } {
	return notFound(
		`models/${id} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`
	);
}

export function notFound(message: string): { status: number; body: unknown } {
	return { status: 404, body: { error: { code: 404, message, status: 'NOT_FOUND' } } };
}

export function invalidArgument(message: string): { status: number; body: unknown } {
	return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}
