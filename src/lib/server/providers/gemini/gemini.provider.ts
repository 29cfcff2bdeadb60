import { GoogleGenAI, type GenerateContentResponse, type Part } from '@google/genai';
import { composeContactSheet } from '../../media/sticker-contact.ts';
import type { AnchorReview, AppearanceCard, CallUsage, FigureRequest, HeadRequest, ImageProvider, JobBrief, PackReviewRequest, ProviderResult, SheetRequest, SheetReviewRequest, StickerReview, UsageKind } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { classifyGeminiError } from './gemini-errors.ts';
import { anchorPrompt, figurePrompt, headPrompt, packReviewPrompt, PASSPORT_PROMPT, REVIEW_PROMPT, sheetPrompt, sheetReviewPrompt } from './gemini-prompts.ts';
import { readPackVerdicts } from './gemini-verdicts.ts';

/**
 * Gemini through @google/genai. httpOptions.baseUrl points it at Google or at tools/fake-gemini.
 * The SDK's own retries are off (attempts: 1): the pipeline retries, so every try is one
 * api_usage row. Reference images: face crop + selfie for the anchor, anchor + layout guide +
 * selfie for sheets — 2–3 references keep a face consistent (PRODUCT.md H).
 */
export interface GeminiOptions {
	apiKey: string;
	baseUrl?: string;
	imageModel: string;
	visionModel: string;
	timeoutMs: number;
}

export function createGeminiProvider(options: GeminiOptions): ImageProvider {
	const ai = new GoogleGenAI({
		apiKey: options.apiKey,
		httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), timeout: options.timeoutMs, retryOptions: { attempts: 1 } }
	});
	const call = async (kind: UsageKind, model: string, parts: Part[], json: boolean): Promise<{ response: GenerateContentResponse; usage: CallUsage }> => {
		try {
			const response = await ai.models.generateContent({
				model,
				contents: [{ role: 'user', parts }],
				config: json ? { responseMimeType: 'application/json' } : { responseModalities: ['IMAGE', 'TEXT'] }
			});
			return { response, usage: usageOf(kind, model, response) };
		} catch (error) {
			throw classifyGeminiError(error, { kind, model });
		}
	};
	const image = async (model: string, parts: Part[], resolution: string): Promise<ProviderResult<Buffer>> => {
		const { response, usage } = await call('image', model, parts, false);
		const data = response.candidates?.[0]?.content?.parts?.find((p) => p.inlineData?.data)?.inlineData?.data;
		if (!data) throw new ProviderError('bad_output', 'the model answered without an image', { ...usage, images: 0 });
		return { value: Buffer.from(data, 'base64'), usage: { ...usage, images: 1, resolution } };
	};
	/** qa_sheet and qa_pack: the anchor and a numbered contact sheet in one vision request. */
	const review = async (prompt: string, request: PackReviewRequest, numbers: number[]): Promise<ProviderResult<StickerReview[]>> => {
		const sheet = await composeContactSheet(request.stickers, numbers);
		const { response, usage } = await call('qa', options.visionModel, [{ text: prompt }, png(request.anchor), png(sheet, 'image/jpeg')], true);
		const answer = parseJson<{ stickers: unknown }>(response, usage, (v) => Array.isArray(v.stickers));
		return { value: readPackVerdicts(answer.stickers as unknown[], numbers.length, numbers), usage };
	};
	return {
		name: 'gemini',
		async describeAppearance(brief: JobBrief): Promise<ProviderResult<AppearanceCard>> {
			const { response, usage } = await call('vision', options.visionModel, [{ text: PASSPORT_PROMPT }, png(brief.faceCrop.length ? brief.faceCrop : brief.selfie, 'image/jpeg')], true);
			return { value: parseJson<AppearanceCard>(response, usage, (v) => typeof v.summary === 'string'), usage };
		},
		drawAnchor: (brief, card) => image(options.imageModel, [{ text: anchorPrompt(brief, card) }, ...(brief.faceCrop.length ? [png(brief.faceCrop, 'image/jpeg')] : []), png(brief.selfie, 'image/jpeg')], '1K'),
		async reviewAnchor(brief: JobBrief, _card: AppearanceCard, anchor: Buffer): Promise<ProviderResult<AnchorReview>> {
			const { response, usage } = await call('qa', options.visionModel, [{ text: REVIEW_PROMPT }, png(brief.selfie, 'image/jpeg'), png(anchor)], true);
			return { value: parseJson<AnchorReview>(response, usage, (v) => typeof v.ok === 'boolean'), usage };
		},
		drawSheet: (request: SheetRequest) => image(options.imageModel, [{ text: sheetPrompt(request) }, png(request.anchor), png(request.layoutGuide), png(request.brief.selfie, 'image/jpeg')], '2K'),
		drawFigure: (request: FigureRequest) => image(options.imageModel, [{ text: figurePrompt(request.variant, request.brief) }, png(request.anchor), png(request.brief.selfie, 'image/jpeg')], '1K'),
		reviewSheet: (request: SheetReviewRequest) => review(sheetReviewPrompt(request.numbers), request, request.numbers),
		reviewPack: (request: PackReviewRequest) => review(packReviewPrompt(request.stickers.length), request, request.stickers.map((_, i) => i + 1)),
		drawHead: (request: HeadRequest) =>
			image(options.imageModel, [{ text: headPrompt(request.brief, request.appearance) }, ...(request.brief.faceCrop.length ? [png(request.brief.faceCrop, 'image/jpeg')] : [png(request.brief.selfie, 'image/jpeg')]), png(request.anchor)], '1K')
	};
}

function png(data: Buffer, mimeType = 'image/png'): Part {
	return { inlineData: { mimeType, data: data.toString('base64') } };
}

/** Token counts as billed: image output tokens apart from text, thinking tokens apart from both. */
function usageOf(kind: UsageKind, model: string, response: GenerateContentResponse): CallUsage {
	const meta = response.usageMetadata;
	const imageTokens = meta?.candidatesTokensDetails?.filter((d) => String(d.modality) === 'IMAGE').reduce((sum, d) => sum + (d.tokenCount ?? 0), 0) ?? 0;
	return { kind, model, promptTokens: meta?.promptTokenCount ?? 0, outputTokens: meta?.candidatesTokenCount ?? 0, imageTokens, thoughtsTokens: meta?.thoughtsTokenCount ?? 0, images: 0, httpStatus: 200 };
}

function parseJson<T>(response: GenerateContentResponse, usage: CallUsage, valid: (value: T) => boolean): T {
	try {
		const value = JSON.parse(response.text ?? '') as T;
		if (valid(value)) return value;
	} catch {
		// fall through
	}
	throw new ProviderError('bad_output', 'the model answered with unreadable JSON', usage);
}
