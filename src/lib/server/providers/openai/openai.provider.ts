import { readImageSize, resolutionOf } from '../../media/image-size.ts';
import { createOfflineProvider } from '../offline/offline.provider.ts';
import type { CallUsage, FigureRequest, ImageProvider, ProviderResult, SheetRequest } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { errorText } from '../../errors/error-text.ts';
import { ModelMissing } from '../model-check.ts';
import { anchorPrompt, figurePrompt, headPrompt, sheetPrompt } from '../gemini/gemini-prompts.ts';
import { openAiAccessProblem } from './openai-access.ts';

/**
 * OpenAI's images API (POST {base}/images/edits, multipart, b64_json) as the optional second image
 * provider. It has no vision step of ours: the appearance card and the anchor, sheet and pack reviews are done
 * locally (the offline face model), so only drawing is paid for.
 */
export interface OpenAiOptions {
	apiKey: string;
	baseUrl: string;
	model: string;
	pricePerMTokImageOut: number;
}

export function createOpenAiProvider(options: OpenAiOptions): ImageProvider {
	const local = createOfflineProvider();
	const edit = async (prompt: string, images: Buffer[], size: string): Promise<ProviderResult<Buffer>> => {
		const form = new FormData();
		form.set('model', options.model);
		form.set('prompt', prompt);
		form.set('size', size);
		form.set('background', 'opaque');
		for (const [i, image] of images.entries())
			form.append('image[]', new Blob([new Uint8Array(image)], { type: 'image/png' }), `ref${i}.png`);
		const usage: CallUsage = { kind: 'image', model: options.model, images: 0, resolution: size };
		let response: Response;
		try {
			response = await fetch(`${options.baseUrl.replace(/\/$/, '')}/images/edits`, {
				method: 'POST',
				headers: { authorization: `Bearer ${options.apiKey}` },
				body: form
			});
		} catch (error) {
			throw new ProviderError('server', `network: ${errorText(error, 1000)}`, usage);
		}
		const body = (await response.json().catch(() => ({}))) as {
			data?: { b64_json?: string }[];
			usage?: { input_tokens?: number; output_tokens?: number };
			error?: { message?: string; code?: string };
		};
		const withStatus = { ...usage, httpStatus: response.status };
		if (!response.ok)
			throw classifyOpenAi(
				response.status,
				body.error?.message ?? response.statusText,
				body.error?.code,
				withStatus,
				options.model
			);
		const b64 = body.data?.[0]?.b64_json;
		if (!b64) throw new ProviderError('bad_output', 'the images API answered without an image', withStatus);
		const outputTokens = body.usage?.output_tokens ?? 0;
		const png = Buffer.from(b64, 'base64');
		const resolution = resolutionOf(await readImageSize(png));
		return {
			value: png,
			usage: {
				...withStatus,
				images: 1,
				resolution,
				promptTokens: body.usage?.input_tokens ?? 0,
				outputTokens,
				imageTokens: outputTokens
			}
		};
	};
	return {
		name: 'openai',
		describeAppearance: (brief) => local.describeAppearance(brief),
		reviewAnchor: (brief, card, anchor) => local.reviewAnchor(brief, card, anchor),
		reviewSheet: (request) => local.reviewSheet(request),
		reviewPack: (request) => local.reviewPack(request),
		drawAnchor: (brief, card) => edit(anchorPrompt(brief, card), [brief.selfie], '1024x1024'),
		drawSheet: (request: SheetRequest) =>
			edit(sheetPrompt(request), [request.anchor, request.layoutGuide], '1536x1024'),
		drawFigure: (request: FigureRequest) =>
			edit(figurePrompt(request.variant, request.index, request.brief), [request.anchor], '1024x1024'),
		drawHead: (request) =>
			edit(
				headPrompt(request.brief, request.appearance),
				[request.brief.faceCrop.length ? request.brief.faceCrop : request.brief.selfie, request.anchor],
				'1024x1024'
			)
	};
}

function classifyOpenAi(
	status: number,
	message: string,
	code: string | undefined,
	usage: Partial<CallUsage>,
	model: string
): ProviderError {
	const access = openAiAccessProblem(status, code, message);
	if (access) return new ProviderError('access', access, usage);
	if (status === 404 || code === 'model_not_found')
		return new ModelMissing({ provider: 'openai', setting: 'OPENAI_IMAGE_MODEL', model }, message, usage);
	if (code === 'insufficient_quota' || code === 'billing_hard_limit_reached' || status === 402)
		return new ProviderError('billing', message, usage);
	if (status === 429) return new ProviderError('rate_minute', message, usage);
	if (status >= 500) return new ProviderError('server', message, usage);
	return new ProviderError('bad_output', message, usage);
}
