import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drawFromPrompt } from './draw.ts';
import { errorBody, type ArmedFault, type FaultInput } from './faults.ts';
import { packVerdict, packVerdictNames } from './verdicts.ts';

/**
 * A fake of Gemini's generateContent endpoint: `POST /v1beta/models/<model>:generateContent` with
 * `x-goog-api-key`, answering candidates[0].content.parts[i].inlineData PNGs (real sticker sheets
 * drawn on a flat background) or JSON text for vision requests, with usageMetadata token counts.
 * Faults are armed through `/_control/faults` (or `control.inject`): 429 per-minute and per-day
 * quota, billing (prepaid credits depleted), 503, slow replies, sheets with a figure missing, and
 * sheet and pack reviews (qa_sheet / qa_pack contact sheets) that reject named stickers.
 */
export interface FakeGeminiCall {
	model: string;
	kind: 'image' | 'json';
	status: number;
	fault?: string;
	at: number;
}

export interface FakeGemini {
	url: string;
	calls: FakeGeminiCall[];
	control: { inject(fault: FaultInput): ArmedFault; clear(): void };
	close(): Promise<void>;
}

const IMAGE_TOKENS = 1290;

export async function createFakeGemini(options: { port?: number; apiKey?: string } = {}): Promise<FakeGemini> {
	const faults: ArmedFault[] = [];
	const calls: FakeGeminiCall[] = [];
	const inject = (input: FaultInput): ArmedFault => {
		const fault: ArmedFault = { kind: input.kind, times: input.times ?? 1, match: input.match ?? 'any', delayMs: input.delayMs ?? 0, stickers: input.stickers ?? [], used: 0 };
		faults.push(fault);
		return fault;
	};
	const clear = () => void faults.splice(0);
	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => send(res, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } }));
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		const body = await readBody(req);
		if (url.pathname === '/_control/faults') {
			if (req.method === 'DELETE') return (clear(), send(res, 200, { ok: true }));
			return send(res, 200, inject(JSON.parse(body) as FaultInput));
		}
		if (url.pathname === '/_control/calls') return send(res, 200, calls);
		const route = /^\/v1(?:beta)?\/models\/([^/:]+):generateContent$/.exec(url.pathname);
		if (!route || req.method !== 'POST') return send(res, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
		if (options.apiKey && req.headers['x-goog-api-key'] !== options.apiKey) return send(res, 400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });
		await answer(res, route[1] ?? '', JSON.parse(body) as GenerateRequest);
	}

	async function answer(res: ServerResponse, model: string, request: GenerateRequest): Promise<void> {
		const kind = request.generationConfig?.responseMimeType === 'application/json' ? 'json' : 'image';
		const parts = request.contents.flatMap((c) => c.parts);
		const prompt = parts.map((p) => p.text ?? '').join(' ');
		const isSheet = kind === 'image' && / columns × \d+ rows/.test(prompt);
		const isReview = kind === 'json' && /contact sheet/.test(prompt);
		const isSheetReview = isReview && /one sheet of the pack/.test(prompt);
		const isPackReview = isReview && !isSheetReview;
		const applies = (f: ArmedFault) => {
			if (f.kind === 'qa_reject') return isPackReview;
			if (f.kind === 'sheet_reject') return isSheetReview && packVerdictNames(prompt, f.stickers);
			return f.match === 'any' || f.match === kind || (f.match === 'sheet' && isSheet) || (f.match === 'qa' && isPackReview);
		};
		const fault = faults.find((f) => f.used < f.times && applies(f));
		if (fault) fault.used++;
		const call: FakeGeminiCall = { model, kind, status: 200, fault: fault?.kind, at: Date.now() };
		calls.push(call);
		if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
		const failure = fault ? errorBody(fault.kind, model) : null;
		if (failure) return ((call.status = failure.status), send(res, failure.status, failure.body));
		const images = parts.filter((p) => p.inlineData).map((p) => Buffer.from(p.inlineData!.data, 'base64'));
		const promptTokens = Math.ceil(prompt.length / 4) + images.length * 258;
		if (kind === 'json') {
			const text = /^Describe/.test(prompt)
				? JSON.stringify({ summary: 'one smiling adult with short dark hair and light stubble', hair: 'short, dark', face: 'oval, light stubble', accessories: 'none' })
				: isReview
					? packVerdict(prompt, fault?.kind === 'qa_reject' || fault?.kind === 'sheet_reject' ? fault.stickers : [])
					: JSON.stringify({ ok: true, likeness: 0.86, notes: ['same person, one full figure'] });
			return send(res, 200, candidate([{ text }], { promptTokenCount: promptTokens, candidatesTokenCount: 60, thoughtsTokenCount: 24, totalTokenCount: promptTokens + 84 }));
		}
		const photos = images.filter(isJpeg);
		const png = await drawFromPrompt(prompt, photos.length ? photos : images.slice(0, 1), fault?.kind === 'wrong_count' ? 1 : 0);
		send(res, 200, candidate([{ inlineData: { mimeType: 'image/png', data: png.toString('base64') } }], {
			promptTokenCount: promptTokens,
			candidatesTokenCount: IMAGE_TOKENS,
			totalTokenCount: promptTokens + IMAGE_TOKENS,
			candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: IMAGE_TOKENS }]
		}));
	}

	const port = await new Promise<number>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
	return {
		url: `http://127.0.0.1:${port}`,
		calls,
		control: { inject, clear },
		close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
	};
}

interface GenerateRequest {
	contents: { role?: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
	generationConfig?: { responseMimeType?: string; responseModalities?: string[] };
}

function candidate(parts: unknown[], usageMetadata: Record<string, unknown>): unknown {
	return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'fake' };
}

/** JPEG references are photos of the guest (the selfie); the fake draws from the last one, else from the anchor. */
function isJpeg(image: Buffer): boolean {
	return image[0] === 0xff && image[1] === 0xd8;
}

function send(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}
