import { GoogleGenAI, type GenerateContentConfig, type GenerateContentResponse, type Part } from '@google/genai';
import type { z } from 'zod';
import { readImageSize, resolutionOf } from '../../media/image-size.ts';
import { composeContactSheet } from '../../media/sticker-contact.ts';
import {
	ProviderError,
	type AnchorReview,
	type AppearanceCard,
	type CallUsage,
	type FigureRequest,
	type HeadRequest,
	type ImageProvider,
	type JobBrief,
	type PackReviewRequest,
	type ProviderResult,
	type SheetRequest,
	type SheetReviewRequest,
	type StickerReview,
	type UsageKind
} from '../provider.ts';
import { readImageAnswer, readJsonAnswer } from './gemini-answer.ts';
import { classifyGeminiError } from './gemini-errors.ts';
import {
	anchorPrompt,
	figurePrompt,
	headPrompt,
	packReviewPrompt,
	PASSPORT_PROMPT,
	REVIEW_PROMPT,
	sheetPrompt,
	sheetReviewPrompt,
	toned
} from './gemini-prompts.ts';
import {
	AnchorReviewAnswer,
	AppearanceAnswer,
	responseSchemaOf,
	VerdictListAnswer,
	VerdictsAnswer
} from './gemini-schemas.ts';
import { readPackVerdicts } from './gemini-verdicts.ts';
import { callSignal } from './call-signal.ts';

/**
 * Gemini through @google/genai. httpOptions.baseUrl points it at Google or at tools/fake-gemini.
 * The SDK's own retries are off (attempts: 1): the pipeline retries, so every try is one
 * api_usage row. Reference images: face crop + selfie for the anchor, anchor + layout guide +
 * selfie for sheets — 2–3 references keep a face consistent.
 *
 * Every image request says what it needs (imageConfig): sheets at 2K in the layout guide's shape —
 * unasked, the API draws 1K in a shape of its choosing, and a 3×2 sheet at 1K has cells too small
 * for 512-px stickers — the anchor at 1K 3:4 (a full figure), single figures and the head at 1K 1:1.
 * The size that came back is measured and recorded, whatever was asked. Vision requests send the
 * JSON Schema of the answer they validate.
 */
export interface GeminiOptions {
	apiKey: string;
	baseUrl?: string;
	imageModel: string;
	visionModel: string;
	timeoutMs: number;
}

export const IMAGE_ASKS = {
	sheet: (aspectRatio: string) => ({ imageSize: '2K', aspectRatio }),
	anchor: { imageSize: '1K', aspectRatio: '3:4' },
	figure: { imageSize: '1K', aspectRatio: '1:1' },
	head: { imageSize: '1K', aspectRatio: '1:1' }
} as const;

type ImageAsk = { imageSize: string; aspectRatio: string };

export function createGeminiProvider(options: GeminiOptions): ImageProvider {
	const ai = new GoogleGenAI({
		apiKey: options.apiKey,
		httpOptions: {
			...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
			timeout: options.timeoutMs,
			retryOptions: { attempts: 1 }
		}
	});
	const call = async (
		kind: UsageKind,
		model: string,
		parts: Part[],
		config: GenerateContentConfig,
		signal?: AbortSignal
	): Promise<{ response: GenerateContentResponse; usage: CallUsage }> => {
		const forCall = callSignal(signal);
		try {
			// The job's abort stops the call (the SDK closes the connection); Google still bills a call
			// it took, so an abandoned one is recorded at an estimate of its cost (below).
			const response = await ai.models.generateContent({
				model,
				contents: [{ role: 'user', parts }],
				config: { ...config, ...(forCall.signal ? { abortSignal: forCall.signal } : {}) }
			});
			return { response, usage: usageOf(kind, model, response) };
		} catch (error) {
			const failure = classifyGeminiError(error, { kind, model });
			if (
				failure.failure === 'server' &&
				failure.usage.httpStatus === undefined &&
				(signal?.aborted || /^timeout:/.test(failure.message))
			) {
				const abandoned = signal?.aborted
					? `aborted: the job stopped during the call (${failure.message.replace(/^timeout: /, '')})`
					: failure.message;
				throw new ProviderError('server', `${abandoned}; billed by the provider, cost estimated`, {
					...failure.usage,
					...abandonedUsage(kind, model, parts, config)
				});
			}
			throw failure;
		} finally {
			forCall.release();
		}
	};
	const image = async (parts: Part[], ask: ImageAsk, signal?: AbortSignal): Promise<ProviderResult<Buffer>> => {
		const { response, usage } = await call(
			'image',
			options.imageModel,
			parts,
			{ responseModalities: ['IMAGE'], imageConfig: ask },
			signal
		);
		const answer = readImageAnswer(response, usage);
		const size = await readImageSize(answer.data);
		return { value: answer.data, usage: { ...usage, images: 1, resolution: resolutionOf(size) } };
	};
	const json = async <T>(
		kind: UsageKind,
		parts: Part[],
		schema: z.ZodType<T>,
		signal: AbortSignal | undefined,
		sent: z.ZodType = schema
	): Promise<ProviderResult<T>> => {
		const { response, usage } = await call(
			kind,
			options.visionModel,
			parts,
			{ responseMimeType: 'application/json', responseJsonSchema: responseSchemaOf(sent) },
			signal
		);
		return { value: readJsonAnswer(response, schema, usage), usage };
	};
	/** qa_sheet and qa_pack: the anchor and a numbered contact sheet in one vision request. */
	const review = async (
		prompt: string,
		request: PackReviewRequest,
		numbers: number[]
	): Promise<ProviderResult<StickerReview[]>> => {
		const sheet = await composeContactSheet(request.stickers, numbers);
		const answer = await json(
			'qa',
			[{ text: toned(prompt, request.brief) }, png(request.anchor), png(sheet, 'image/jpeg')],
			VerdictListAnswer,
			request.brief.signal,
			VerdictsAnswer
		);
		return { value: readPackVerdicts(answer.value.stickers, numbers.length, numbers), usage: answer.usage };
	};
	const photo = (brief: JobBrief) => png(brief.selfie, 'image/jpeg');
	const faceOrSelfie = (brief: JobBrief) => png(brief.faceCrop.length ? brief.faceCrop : brief.selfie, 'image/jpeg');
	return {
		name: 'gemini',
		describeAppearance: (brief: JobBrief): Promise<ProviderResult<AppearanceCard>> =>
			json('vision', [{ text: toned(PASSPORT_PROMPT, brief) }, faceOrSelfie(brief)], AppearanceAnswer, brief.signal),
		drawAnchor: (brief, card) =>
			image(
				[
					{ text: toned(anchorPrompt(brief, card), brief) },
					...(brief.faceCrop.length ? [png(brief.faceCrop, 'image/jpeg')] : []),
					photo(brief)
				],
				IMAGE_ASKS.anchor,
				brief.signal
			),
		reviewAnchor: (brief: JobBrief, _card: AppearanceCard, anchor: Buffer): Promise<ProviderResult<AnchorReview>> =>
			json('qa', [{ text: toned(REVIEW_PROMPT, brief) }, photo(brief), png(anchor)], AnchorReviewAnswer, brief.signal),
		drawSheet: (request: SheetRequest) =>
			image(
				[
					{ text: toned(sheetPrompt(request), request.brief) },
					png(request.anchor),
					png(request.layoutGuide),
					photo(request.brief)
				],
				IMAGE_ASKS.sheet(request.aspectRatio),
				request.brief.signal
			),
		drawFigure: (request: FigureRequest) =>
			image(
				[
					{ text: toned(figurePrompt(request.variant, request.index, request.brief), request.brief) },
					png(request.anchor),
					photo(request.brief)
				],
				IMAGE_ASKS.figure,
				request.brief.signal
			),
		reviewSheet: (request: SheetReviewRequest) => review(sheetReviewPrompt(request.numbers), request, request.numbers),
		reviewPack: (request: PackReviewRequest) =>
			review(
				packReviewPrompt(request.stickers.length),
				request,
				request.stickers.map((_, i) => i + 1)
			),
		drawHead: (request: HeadRequest) =>
			image(
				[
					{ text: toned(headPrompt(request.brief, request.appearance), request.brief) },
					faceOrSelfie(request.brief),
					png(request.anchor)
				],
				IMAGE_ASKS.head,
				request.brief.signal
			)
	};
}

function png(data: Buffer, mimeType = 'image/png'): Part {
	return { inlineData: { mimeType, data: data.toString('base64') } };
}

/**
 * Token counts as billed: image output tokens apart from text, thinking tokens apart from both; the
 * model is the one that answered (`modelVersion`: a deprecated id is served by its replacement).
 * An answer came back, so Google bills it whether or not we can use it.
 */
function usageOf(kind: UsageKind, model: string, response: GenerateContentResponse): CallUsage {
	const meta = response.usageMetadata;
	const imageTokens =
		meta?.candidatesTokensDetails
			?.filter((d) => String(d.modality) === 'IMAGE')
			.reduce((sum, d) => sum + (d.tokenCount ?? 0), 0) ?? 0;
	return {
		kind,
		model: response.modelVersion || model,
		promptTokens: meta?.promptTokenCount ?? 0,
		outputTokens: meta?.candidatesTokenCount ?? 0,
		imageTokens,
		thoughtsTokens: meta?.thoughtsTokenCount ?? 0,
		images: 0,
		httpStatus: 200,
		billed: true
	};
}

/** Input tokens per image part (Gemini 3's default media resolution) and image output tokens per asked size. */
const INPUT_IMAGE_TOKENS = 1120;
const IMAGE_OUTPUT_TOKENS: Record<string, number> = { '512': 747, '1K': 1120, '2K': 1680, '4K': 2520 };

/**
 * A call abandoned before its answer (timeout, the job's abort): Google finishes and bills it, but
 * tells us nothing, so its cost is estimated — about four characters a text token, 1120 tokens an
 * image in, and the asked image's output tokens.
 */
function abandonedUsage(
	kind: UsageKind,
	model: string,
	parts: Part[],
	config: GenerateContentConfig
): Partial<CallUsage> {
	const text = parts.reduce((sum, p) => sum + (p.text?.length ?? 0), 0);
	const images = parts.filter((p) => p.inlineData).length;
	const imageTokens = kind === 'image' ? (IMAGE_OUTPUT_TOKENS[config.imageConfig?.imageSize ?? '1K'] ?? 1120) : 0;
	return {
		kind,
		model,
		promptTokens: Math.ceil(text / 4) + images * INPUT_IMAGE_TOKENS,
		outputTokens: imageTokens,
		imageTokens,
		billed: true,
		estimated: true
	};
}
