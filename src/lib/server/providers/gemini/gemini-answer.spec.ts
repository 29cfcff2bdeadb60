import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ProviderError, type CallUsage } from '../provider.ts';
import { extractJson, readImageAnswer, readJsonAnswer } from './gemini-answer.ts';
import { readRefusal } from './gemini-refusals.ts';
import { AppearanceAnswer, responseSchemaOf, VerdictsAnswer } from './gemini-schemas.ts';

const usage: CallUsage = { kind: 'image', model: 'm', images: 0 };
const png = (tag: string) => ({ inlineData: { mimeType: 'image/png', data: Buffer.from(tag).toString('base64') } });
const answer = (parts: object[], finishReason = 'STOP') =>
	({ candidates: [{ content: { role: 'model', parts }, finishReason }] }) as unknown as GenerateContentResponse;
const failureOf = (run: () => unknown) => {
	try {
		run();
	} catch (error) {
		if (error instanceof ProviderError) return { failure: error.failure, message: error.message };
		throw error;
	}
	throw new Error('expected a ProviderError');
};

describe('reading a JSON answer', () => {
	it('finds the one JSON value in bare text, in a fence, and between sentences', () => {
		expect(extractJson('{"a":1}')).toEqual({ a: 1 });
		expect(extractJson('Here you go:\n```json\n{"a":[1,2]}\n```\nAnything else?')).toEqual({ a: [1, 2] });
		expect(extractJson('Sure! {"a":"a } inside","b":{"c":2}} Hope that helps.')).toEqual({
			a: 'a } inside',
			b: { c: 2 }
		});
		expect(extractJson('no json here')).toBeUndefined();
	});

	it('skips thought parts and validates with the schema the request sent', () => {
		const parsed = readJsonAnswer(
			answer([
				{ text: '{"summary": "a thought, not the answer"}', thought: true },
				{ text: 'Here is the card:\n```json\n{"summary":"short dark hair"}\n```' }
			]),
			AppearanceAnswer,
			usage
		);
		expect(parsed).toEqual({ summary: 'short dark hair' });
	});

	it('calls an answer that is still unreadable bad_output, saying what was wrong', () => {
		expect(
			failureOf(() => readJsonAnswer(answer([{ text: 'I cannot help with that.' }]), AppearanceAnswer, usage))
		).toEqual({ failure: 'bad_output', message: 'unreadable answer: no JSON in “I cannot help with that.”' });
		expect(
			failureOf(() => readJsonAnswer(answer([{ text: '{"summary": 3}' }]), AppearanceAnswer, usage))
		).toMatchObject({
			failure: 'bad_output',
			message: expect.stringMatching(/^unreadable answer: summary /) as string
		});
	});
});

describe('reading an image answer', () => {
	it('takes the last image that is not a thought, whatever text comes around it', () => {
		const image = readImageAnswer(
			answer([
				{ text: 'planning', thought: true },
				{ ...png('draft'), thought: true },
				{ text: 'Here it is:' },
				png('final'),
				{ text: 'Enjoy!' }
			]),
			usage
		);
		expect(image.data.toString()).toBe('final');
	});

	it('calls a text-only answer to an image request blocked (NO_IMAGE), quoting it', () => {
		expect(failureOf(() => readImageAnswer(answer([{ text: 'I can only describe it.' }]), usage))).toEqual({
			failure: 'blocked',
			message: 'blocked (NO_IMAGE): the model answered without an image: “I can only describe it.”'
		});
	});

	it('classifies every stop: blocked ones are asked again softened, refused ones never', () => {
		const cases: [string, string][] = [
			['IMAGE_SAFETY', 'blocked'],
			['SAFETY', 'blocked'],
			['RECITATION', 'blocked'],
			['IMAGE_RECITATION', 'blocked'],
			['NO_IMAGE', 'blocked'],
			['IMAGE_OTHER', 'blocked'],
			['PROHIBITED_CONTENT', 'refused'],
			['IMAGE_PROHIBITED_CONTENT', 'refused'],
			['BLOCKLIST', 'refused'],
			['SPII', 'refused'],
			['MAX_TOKENS', 'bad_output']
		];
		for (const [reason, failure] of cases)
			expect({ reason, failure: failureOf(() => readImageAnswer(answer([], reason), usage)).failure }).toEqual({
				reason,
				failure
			});
	});

	it('reads a blocked prompt and an empty candidate list', () => {
		const blocked = (blockReason: string) =>
			({ promptFeedback: { blockReason } }) as unknown as GenerateContentResponse;
		expect(failureOf(() => readImageAnswer(blocked('SAFETY'), usage))).toEqual({
			failure: 'blocked',
			message: 'blocked (SAFETY): the prompt was blocked'
		});
		expect(failureOf(() => readImageAnswer(blocked('PROHIBITED_CONTENT'), usage)).failure).toBe('refused');
		expect(
			failureOf(() => readJsonAnswer({ candidates: [] } as unknown as GenerateContentResponse, AppearanceAnswer, usage))
		).toEqual({ failure: 'blocked', message: 'blocked (NO_CANDIDATES): the model returned no candidate' });
	});

	it('names the failure and reason so the console can read them back', () => {
		expect(readRefusal('refused (PROHIBITED_CONTENT): …')).toEqual({
			failure: 'refused',
			reason: 'PROHIBITED_CONTENT'
		});
		expect(readRefusal('blocked (IMAGE_SAFETY)')).toEqual({ failure: 'blocked', reason: 'IMAGE_SAFETY' });
		expect(readRefusal('HTTP 503 overloaded')).toBeNull();
	});
});

describe('the JSON Schema sent with vision requests', () => {
	it('is zod’s schema in the keywords responseJsonSchema takes, every field required', () => {
		const schema = responseSchemaOf(VerdictsAnswer);
		const text = JSON.stringify(schema);
		expect(text).not.toMatch(/"\$schema"|"default"|9007199254740991/);
		const sticker = (schema as { properties: { stickers: { items: { required: string[] } } } }).properties.stickers
			.items;
		expect(sticker.required).toEqual(['n', 'ok', 'likeness', 'onePerson', 'cropped', 'notes']);
	});
});
