import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, GoogleGenAI } from '@google/genai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfie } from '../../tests/integration/generation-selfie.ts';
import type { FaultInput } from './faults.ts';
import { createFakeGemini, type FakeGemini } from './server.ts';

/** The stand-in against what the API reference says the real API does, request by request. */
const here = path.dirname(fileURLToPath(import.meta.url));
let gemini: FakeGemini;
let selfie: Buffer;

beforeAll(async () => {
	gemini = await createFakeGemini({ apiKey: 'k', models: ['img-model', 'text-model'] });
	selfie = await makeSelfie(450);
});
afterAll(() => gemini.close());

type Part = { text?: string; thought?: boolean; inlineData?: { mimeType: string; data: string } };
type Answer = {
	candidates?: { content?: { parts?: Part[] }; finishReason?: string }[];
	promptFeedback?: { blockReason?: string };
	usageMetadata?: { candidatesTokensDetails?: { modality: string; tokenCount: number }[] };
};

async function generate(
	model: string,
	prompt: string,
	config: Record<string, unknown> = {},
	faults: FaultInput[] = []
): Promise<{ status: number; body: Answer & { error?: { code: number; status: string; message: string } } }> {
	for (const fault of faults) gemini.control.inject(fault);
	const response = await fetch(`${gemini.url}/v1beta/models/${model}:generateContent`, {
		method: 'POST',
		headers: { 'x-goog-api-key': 'k', 'content-type': 'application/json' },
		body: JSON.stringify({
			contents: [
				{
					role: 'user',
					parts: [{ text: prompt }, { inlineData: { mimeType: 'image/jpeg', data: selfie.toString('base64') } }]
				}
			],
			generationConfig: config
		})
	});
	gemini.control.clear();
	return {
		status: response.status,
		body: (await response.json()) as Answer & { error?: { code: number; status: string; message: string } }
	};
}

const SHEET =
	'A sticker sheet of the same character: 3 columns × 2 rows, exactly 6 separate figures. Cells: 1: wave, caption "Hi" 👋; 2: jump, caption "Yay" 🎉. Flat solid #00B140 background.';
const imagesOf = (answer: Answer) => (answer.candidates?.[0]?.content?.parts ?? []).filter((p) => p.inlineData);
const sizeOf = async (part: Part) => sharp(Buffer.from(part.inlineData!.data, 'base64')).metadata();

describe('the fake Gemini server', () => {
	it('is written without the product: nothing in tools/fake-gemini imports from src/', () => {
		const files = readdirSync(here).filter((f) => f.endsWith('.ts'));
		const offenders = files.filter((f) =>
			/from\s+['"][^'"]*(\/src\/|\$lib)/.test(readFileSync(path.join(here, f), 'utf8'))
		);
		expect(files.length).toBeGreaterThan(8);
		expect(offenders).toEqual([]);
	});

	it('answers its 1K default with no imageConfig, in a shape taken from the reference photo', async () => {
		const { body } = await generate('img-model', SHEET, { responseModalities: ['IMAGE'] });
		const meta = await sizeOf(imagesOf(body)[0]!);
		expect({ width: meta.width, height: meta.height }).toEqual({ width: 880, height: 1184 });
	});

	it('answers the asked imageSize and aspectRatio, with the image tokens of that size', async () => {
		const { body } = await generate('img-model', SHEET, {
			responseModalities: ['IMAGE'],
			imageConfig: { imageSize: '2K', aspectRatio: '3:2' }
		});
		const meta = await sizeOf(imagesOf(body)[0]!);
		expect({ width: meta.width, height: meta.height }).toEqual({ width: 2512, height: 1680 });
		expect(body.usageMetadata?.candidatesTokensDetails).toContainEqual({ modality: 'IMAGE', tokenCount: 1680 });
	});

	it('refuses an imageConfig the API does not take (lowercase k, an unlisted ratio) with 400 INVALID_ARGUMENT', async () => {
		for (const imageConfig of [{ imageSize: '2k' }, { aspectRatio: '3:1' }]) {
			const { status, body } = await generate('img-model', SHEET, { imageConfig });
			expect({ status, code: body.error?.status }).toEqual({ status: 400, code: 'INVALID_ARGUMENT' });
		}
	});

	it('ignores imageConfig on demand (default_size): a 1K answer to a 2K request', async () => {
		const { body } = await generate('img-model', SHEET, { imageConfig: { imageSize: '2K', aspectRatio: '3:2' } }, [
			{ kind: 'default_size' }
		]);
		expect((await sizeOf(imagesOf(body)[0]!)).width).toBe(880);
	});

	it('draws a background only near the asked colour: shifted, graded and noisy, never flat', async () => {
		const { body } = await generate('img-model', SHEET, { imageConfig: { imageSize: '1K', aspectRatio: '3:2' } });
		const png = Buffer.from(imagesOf(body)[0]!.inlineData!.data, 'base64');
		const border = await sharp(png).extract({ left: 0, top: 0, width: 1248, height: 6 }).stats();
		const [r, g, b] = border.channels;
		// Shifted by up to 8 and graded by up to 10 per channel: near the asked #00B140, not on it.
		expect(Math.max(Math.abs(r!.mean - 0), Math.abs(g!.mean - 177), Math.abs(b!.mean - 64))).toBeLessThan(25);
		expect(g!.stdev).toBeGreaterThan(1.5);
		expect(g!.max - g!.min).toBeGreaterThan(8);
	});

	it('answers 404 NOT_FOUND in Google’s error shape for a model it does not know, through the real client too', async () => {
		const { status, body } = await generate('gemini-0-nope', SHEET);
		expect({ status, error: body.error }).toEqual({
			status: 404,
			error: {
				code: 404,
				status: 'NOT_FOUND',
				message: expect.stringContaining('models/gemini-0-nope is not found for API version v1beta') as string
			}
		});
		const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: gemini.url, retryOptions: { attempts: 1 } } });
		const error = await ai.models.generateContent({ model: 'gemini-0-nope', contents: 'hi' }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ApiError);
		expect((error as ApiError).status).toBe(404);
	});

	it('lists and gets models like models.list / models.get, paging with pageSize and pageToken', async () => {
		const first = (await (
			await fetch(`${gemini.url}/v1beta/models?pageSize=1`, { headers: { 'x-goog-api-key': 'k' } })
		).json()) as { models: { name: string }[]; nextPageToken?: string };
		expect(first.models.map((m) => m.name)).toEqual(['models/img-model']);
		const second = (await (
			await fetch(`${gemini.url}/v1beta/models?pageSize=1&pageToken=${first.nextPageToken}`, {
				headers: { 'x-goog-api-key': 'k' }
			})
		).json()) as { models: { name: string }[]; nextPageToken?: string };
		expect({ names: second.models.map((m) => m.name), next: second.nextPageToken }).toEqual({
			names: ['models/text-model'],
			next: undefined
		});
		const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: gemini.url, retryOptions: { attempts: 1 } } });
		expect((await ai.models.get({ model: 'text-model' })).supportedActions).toContain('generateContent');
		const names: string[] = [];
		for await (const model of await ai.models.list()) names.push(model.name ?? '');
		expect(names).toEqual(['models/img-model', 'models/text-model']);
		const missing = await fetch(`${gemini.url}/v1beta/models/nope`, { headers: { 'x-goog-api-key': 'k' } });
		expect({
			status: missing.status,
			body: ((await missing.json()) as { error: { status: string } }).error.status
		}).toEqual({ status: 404, body: 'NOT_FOUND' });
		gemini.control.setModels(['only-one']);
		expect(
			(
				(await (await fetch(`${gemini.url}/v1beta/models`, { headers: { 'x-goog-api-key': 'k' } })).json()) as {
					models: unknown[];
				}
			).models
		).toHaveLength(1);
		gemini.control.setModels(['img-model', 'text-model']);
	});

	it('wraps an image in thoughts and text on demand (chatty): a thought draft first, the real image after some text', async () => {
		const { body } = await generate('img-model', SHEET, { imageConfig: { imageSize: '1K', aspectRatio: '3:2' } }, [
			{ kind: 'chatty' }
		]);
		const parts = body.candidates![0]!.content!.parts!;
		expect(parts.map((p) => (p.inlineData ? 'image' : 'text') + (p.thought ? '(thought)' : ''))).toEqual([
			'text(thought)',
			'image(thought)',
			'text',
			'image',
			'text'
		]);
		expect((await sizeOf(parts[1]!)).width).toBeLessThan(300);
		expect((await sizeOf(parts[3]!)).width).toBe(1248);
	});

	it('puts JSON in a fence between sentences on demand (fenced_json)', async () => {
		const { body } = await generate(
			'text-model',
			'Describe the one person in this photo',
			{ responseMimeType: 'application/json' },
			[{ kind: 'fenced_json' }]
		);
		const text = body.candidates![0]!.content!.parts![0]!.text!;
		expect(text).toMatch(/^Here is my assessment as JSON:\n```json\n\{.*\}\n```\n/s);
	});

	it('blocks on demand: promptFeedback.blockReason, a stopped candidate, no candidates, a text-only answer', async () => {
		expect(
			(await generate('img-model', SHEET, {}, [{ kind: 'blocked_prompt', reason: 'PROHIBITED_CONTENT' }])).body
		).toMatchObject({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } });
		expect(
			(await generate('img-model', SHEET, {}, [{ kind: 'finish', reason: 'IMAGE_SAFETY' }])).body.candidates![0]
		).toMatchObject({ finishReason: 'IMAGE_SAFETY', content: { parts: [] } });
		expect((await generate('img-model', SHEET, {}, [{ kind: 'no_candidates' }])).body.candidates).toEqual([]);
		const textOnly = (await generate('img-model', SHEET, {}, [{ kind: 'text_only' }])).body;
		expect({ images: imagesOf(textOnly).length, finish: textOnly.candidates![0]!.finishReason }).toEqual({
			images: 0,
			finish: 'STOP'
		});
	});

	it('answers JPEG on demand, and one figure too many or too few on a sheet', async () => {
		const jpeg = imagesOf((await generate('img-model', SHEET, {}, [{ kind: 'jpeg' }])).body)[0]!;
		expect({
			mime: jpeg.inlineData!.mimeType,
			magic: Buffer.from(jpeg.inlineData!.data, 'base64').subarray(0, 2).toString('hex')
		}).toEqual({ mime: 'image/jpeg', magic: 'ffd8' });
		const plates = async (faults: FaultInput[]) => {
			const part = imagesOf(
				(await generate('img-model', SHEET, { imageConfig: { imageSize: '1K', aspectRatio: '3:2' } }, faults)).body
			)[0]!;
			return countCaptionPlates(Buffer.from(part.inlineData!.data, 'base64'));
		};
		expect([
			await plates([]),
			await plates([{ kind: 'extra_figure' }]),
			await plates([{ kind: 'wrong_count' }])
		]).toEqual([6, 7, 5]);
	});

	it('records what each request asked: its kind, imageConfig, whether it sent a schema, the size answered', async () => {
		gemini.calls.splice(0);
		await generate('img-model', SHEET, { imageConfig: { imageSize: '2K', aspectRatio: '3:2' } });
		await generate('text-model', 'Describe the one person', {
			responseMimeType: 'application/json',
			responseJsonSchema: { type: 'object' }
		});
		expect(
			gemini.calls.map((c) => ({ request: c.request, imageConfig: c.imageConfig, schema: c.schema, size: c.size }))
		).toEqual([
			{
				request: 'sheet',
				imageConfig: { imageSize: '2K', aspectRatio: '3:2' },
				schema: false,
				size: { width: 2512, height: 1680 }
			},
			{ request: 'passport', imageConfig: undefined, schema: true, size: undefined }
		]);
	});
});

/** Caption plates on a sheet: connected areas of the plate colour (the counters of letters, a few pixels each, are not plates). */
async function countCaptionPlates(png: Buffer): Promise<number> {
	const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	const plate = (i: number) =>
		Math.abs(data[i]! - 255) + Math.abs(data[i + 1]! - 226) + Math.abs(data[i + 2]! - 102) < 40;
	const seen = new Set<string>();
	const stack: number[] = [];
	let count = 0;
	for (let p = 0; p < info.width * info.height; p += 7) {
		if (!plate(p * 3) || seen.has(String(p))) continue;
		let area = 0;
		stack.push(p);
		while (stack.length) {
			const q = stack.pop()!;
			if (seen.has(String(q)) || !plate(q * 3)) continue;
			seen.add(String(q));
			area++;
			const x = q % info.width;
			if (x > 0) stack.push(q - 1);
			if (x < info.width - 1) stack.push(q + 1);
			if (q >= info.width) stack.push(q - info.width);
			if (q < info.width * (info.height - 1)) stack.push(q + info.width);
		}
		if (area >= 300) count++;
	}
	return count;
}
