import type { GenerateContentResponse, Part } from '@google/genai';
import type { z } from 'zod';
import { ProviderError, type CallUsage } from '../provider.ts';
import { refusalOf } from './gemini-refusals.ts';

/**
 * Reading a generateContent answer the way real models send them. Thought parts (thought: true,
 * drafts included) are the model thinking, never the answer. An image answer is the last image
 * part that is not a thought, whatever text comes around it; none is a blocked answer (asked
 * again, softened). A JSON answer is the answer's text with any fence or sentences around the one
 * JSON value taken off, validated by its zod schema; still unreadable is bad_output, saying why.
 */
export interface AnswerImage {
	data: Buffer;
	mimeType: string;
}

export function readImageAnswer(response: GenerateContentResponse, usage: CallUsage): AnswerImage {
	const refusal = refusalOf(response, usage);
	if (refusal) throw refusal;
	const parts = answerParts(response);
	const image = parts.filter((p) => p.inlineData?.data).at(-1);
	if (image?.inlineData?.data)
		return { data: Buffer.from(image.inlineData.data, 'base64'), mimeType: image.inlineData.mimeType ?? 'image/png' };
	const said = textOf(parts);
	throw new ProviderError(
		'blocked',
		`blocked (NO_IMAGE): the model answered without an image${said ? `: “${said.slice(0, 160)}”` : ''}`,
		usage
	);
}

export function readJsonAnswer<T>(response: GenerateContentResponse, schema: z.ZodType<T>, usage: CallUsage): T {
	const refusal = refusalOf(response, usage);
	if (refusal) throw refusal;
	const text = textOf(answerParts(response));
	const value = extractJson(text);
	if (value === undefined)
		throw new ProviderError('bad_output', `unreadable answer: no JSON in “${text.slice(0, 200)}”`, usage);
	const parsed = schema.safeParse(value);
	if (!parsed.success)
		throw new ProviderError(
			'bad_output',
			`unreadable answer: ${parsed.error.issues
				.map((i) => `${i.path.join('.') || 'answer'} ${i.message}`)
				.join('; ')
				.slice(0, 300)}`,
			usage
		);
	return parsed.data;
}

/**
 * The one JSON object or array in a model's text: the whole text, else the inside of a ``` fence,
 * else the span from the first { or [ to its matching close (sentences before and after).
 */
export function extractJson(text: string): unknown {
	const trimmed = text.trim();
	const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(trimmed)?.[1];
	for (const candidate of [trimmed, fenced?.trim(), balancedSpan(trimmed)]) {
		if (!candidate) continue;
		try {
			return JSON.parse(candidate) as unknown;
		} catch {
			// try the next reading
		}
	}
	return undefined;
}

/** The answer's own parts: the first candidate's, less the model's thoughts. */
function answerParts(response: GenerateContentResponse): Part[] {
	return (response.candidates?.[0]?.content?.parts ?? []).filter((p) => !p.thought);
}

function textOf(parts: Part[]): string {
	return parts
		.map((p) => p.text ?? '')
		.join('')
		.trim();
}

/** From the first { or [ to the bracket that closes it, skipping brackets inside strings. */
function balancedSpan(text: string): string | undefined {
	const start = text.search(/[{[]/);
	if (start < 0) return undefined;
	const stack: string[] = [];
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text[i]!;
		if (inString) {
			if (c === '\\') i++;
			else if (c === '"') inString = false;
			continue;
		}
		if (c === '"') inString = true;
		else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
		else if (c === '}' || c === ']') {
			if (stack.pop() !== c) return undefined;
			if (stack.length === 0) return text.slice(start, i + 1);
		}
	}
	return undefined;
}
