/**
 * GenerateContentResponse bodies as the API sends them: candidates[0].content.parts with text,
 * thought and inlineData parts, finishReason, promptFeedback for a blocked prompt, usageMetadata
 * with the image tokens apart (candidatesTokensDetails, modality IMAGE) and thinking tokens apart.
 */
export interface Part {
	text?: string;
	thought?: boolean;
	inlineData?: { mimeType: string; data: string };
}

export interface Usage {
	promptTokens: number;
	textTokens?: number;
	imageTokens?: number;
	thoughtsTokens?: number;
}

export function answer(parts: Part[], usage: Usage, finishReason = 'STOP'): unknown {
	return {
		candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
		usageMetadata: usageMetadata(usage),
		modelVersion: 'fake-gemini',
		responseId: responseId()
	};
}

/** A prompt the API refused to answer: no candidates, promptFeedback.blockReason says why. */
export function blockedPrompt(reason: string, usage: Usage): unknown {
	return {
		promptFeedback: {
			blockReason: reason,
			safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'MEDIUM', blocked: true }]
		},
		usageMetadata: usageMetadata(usage),
		modelVersion: 'fake-gemini',
		responseId: responseId()
	};
}

/** A candidate that stopped for a safety, recitation or no-image reason: no image in it. */
export function stopped(reason: string, usage: Usage): unknown {
	return {
		candidates: [
			{
				content: { role: 'model', parts: [] },
				finishReason: reason,
				finishMessage: `Unable to show the generated image: the model stopped (${reason}).`,
				index: 0
			}
		],
		usageMetadata: usageMetadata(usage),
		modelVersion: 'fake-gemini',
		responseId: responseId()
	};
}

export function noCandidates(usage: Usage): unknown {
	return { candidates: [], usageMetadata: usageMetadata(usage), modelVersion: 'fake-gemini', responseId: responseId() };
}

/** The parts of an image answer; `chatty` wraps the image in thoughts (one a low-resolution draft) and sentences. */
export function imageParts(
	image: { mimeType: string; data: string },
	chatty: { draft: { mimeType: string; data: string } } | null
): Part[] {
	if (!chatty) return [{ inlineData: image }];
	return [
		{
			text: '**Planning the layout**\nI will keep every figure inside its cell and the background flat.',
			thought: true
		},
		{ inlineData: chatty.draft, thought: true },
		{ text: 'Here is the image you asked for.' },
		{ inlineData: image },
		{ text: 'Let me know if you would like any changes.' }
	];
}

/** The parts of a JSON answer: bare JSON, or (fenced) inside a ```json fence between sentences, thoughts first when chatty. */
export function jsonParts(json: string, options: { fenced: boolean; chatty: boolean }): Part[] {
	const text = options.fenced
		? `Here is my assessment as JSON:\n\`\`\`json\n${json}\n\`\`\`\nEach value follows the requested schema.`
		: json;
	return options.chatty
		? [{ text: 'Comparing the drawings with the reference…', thought: true }, { text }]
		: [{ text }];
}

function usageMetadata(usage: Usage): Record<string, unknown> {
	const text = usage.textTokens ?? 0;
	const image = usage.imageTokens ?? 0;
	const thoughts = usage.thoughtsTokens ?? 0;
	const candidates = text + image;
	return {
		promptTokenCount: usage.promptTokens,
		...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
		...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
		totalTokenCount: usage.promptTokens + candidates + thoughts,
		promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.promptTokens }],
		...(candidates > 0
			? {
					candidatesTokensDetails: [
						...(image ? [{ modality: 'IMAGE', tokenCount: image }] : []),
						...(text ? [{ modality: 'TEXT', tokenCount: text }] : [])
					]
				}
			: {})
	};
}

let responses = 0;
function responseId(): string {
	return `fake-${Date.now().toString(36)}-${(++responses).toString(36)}`;
}
