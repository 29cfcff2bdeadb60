import { closeWithoutResets, keepConnectionsLikeAFrontEnd } from '../http-front.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { armFault, type ArmedFault, type FaultInput } from './faults.ts';
import { generate, type FakeGeminiCall, type FakeState, type GenerateRequest } from './generate.ts';
import { DEFAULT_MODEL_IDS, DEFAULT_REDIRECTS, getModel, listModels, unknownModel } from './models.ts';

export type { FakeGeminiCall } from './generate.ts';

/**
 * A stand-in for the Gemini API, written without the product's code, that answers like the real
 * one: `POST /v1beta/models/<model>:generateContent` (x-goog-api-key) with candidates, parts and
 * usageMetadata — images at the asked imageConfig size (1K when none is asked), drawn by the fake
 * itself on a background only near the asked colour; JSON for vision requests — plus
 * `GET /v1beta/models` and `GET /v1beta/models/<id>`, and 404 NOT_FOUND for a model it does not
 * know. Faults and answer shapes are armed per request through `POST /_control/faults`
 * (`control.inject`, see faults.ts); `GET /_control/calls` lists what was asked;
 * `POST /_control/models {ids}` sets which models exist. `latencyMs` delays every generateContent
 * answer by a fixed time.
 */
export interface FakeGemini {
	url: string;
	calls: FakeGeminiCall[];
	control: { inject(fault: FaultInput): ArmedFault; clear(): void; setModels(ids: string[]): void };
	close(): Promise<void>;
}

export interface FakeGeminiOptions {
	port?: number;
	apiKey?: string;
	/** Model ids that exist; DEFAULT_MODEL_IDS when not given. */
	models?: string[];
	/**
	 * Every generateContent call waits this long before it is answered (the real API takes seconds
	 * per image), so a benchmark sees generation bound by the API's latency, not by the fake's drawing.
	 */
	latencyMs?: number;
	/** How the latency is waited (a timer by default); specs pass their own to hold and release calls. */
	sleep?: (ms: number) => Promise<void>;
	/**
	 * Deprecated ids the API still answers, silently served by another model (its modelVersion);
	 * DEFAULT_REDIRECTS when not given.
	 */
	redirects?: Record<string, string>;
}

/** How long close() lets a call in flight finish before cutting it. */
const CLOSE_GRACE_MS = 1_000;

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function createFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
	const state: FakeState = { faults: [], calls: [], seeds: new Map() };
	let models = [...(options.models ?? DEFAULT_MODEL_IDS)];
	const inject = (input: FaultInput): ArmedFault => {
		const fault = armFault(input);
		state.faults.push(fault);
		return fault;
	};
	const clear = () => void state.faults.splice(0);
	const setModels = (ids: string[]) => void (models = [...ids]);
	const server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) =>
			send(res, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } })
		);
	});

	keepConnectionsLikeAFrontEnd(server);

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		const body = await readBody(req);
		if (url.pathname.startsWith('/_control/')) return control(req.method ?? 'GET', url.pathname, body, res);
		const path = /^\/v1(?:beta)?\/models(?:\/([^/:]+))?(?::(\w+))?$/.exec(url.pathname);
		if (!path)
			return send(res, 404, {
				error: { code: 404, message: `Method not found: ${url.pathname}`, status: 'NOT_FOUND' }
			});
		const key = req.headers['x-goog-api-key'] ?? url.searchParams.get('key');
		if (options.apiKey && key !== options.apiKey)
			return send(res, 400, {
				error: {
					code: 400,
					message: 'API key not valid. Please pass a valid API key.',
					status: 'INVALID_ARGUMENT',
					details: [
						{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }
					]
				}
			});
		const [, id, method] = path;
		if (req.method === 'GET' && !id) return reply(res, listModels(models, url.searchParams));
		if (req.method === 'GET' && id && !method) return reply(res, getModel(models, id));
		if (req.method === 'POST' && id && method === 'generateContent') {
			if (!models.includes(id)) return reply(res, unknownModel(id));
			if (options.latencyMs) await (options.sleep ?? timerSleep)(options.latencyMs);
			const closed = new AbortController();
			res.on('close', () => res.writableEnded || closed.abort());
			const servedBy = (options.redirects ?? DEFAULT_REDIRECTS)[id];
			const answer = await generate(id, JSON.parse(body) as GenerateRequest, state, {
				servedBy,
				closed: closed.signal
			});
			if (closed.signal.aborted) return;
			return reply(res, answer);
		}
		return send(res, 404, {
			error: { code: 404, message: `Method not found: ${req.method} ${url.pathname}`, status: 'NOT_FOUND' }
		});
	}

	function control(method: string, path: string, body: string, res: ServerResponse): void {
		if (path === '/_control/faults' && method === 'DELETE') return (clear(), send(res, 200, { ok: true }));
		if (path === '/_control/faults') return send(res, 200, inject(JSON.parse(body) as FaultInput));
		if (path === '/_control/calls') return send(res, 200, state.calls);
		if (path === '/_control/models' && method === 'POST')
			return (setModels((JSON.parse(body) as { ids: string[] }).ids), send(res, 200, { ids: models }));
		if (path === '/_control/models') return send(res, 200, { ids: models });
		send(res, 404, { error: { code: 404, message: 'no such control', status: 'NOT_FOUND' } });
	}

	const port = await new Promise<number>((resolve) =>
		server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
	);
	return {
		url: `http://127.0.0.1:${port}`,
		calls: state.calls,
		control: { inject, clear, setModels },
		// A generate call in flight finishes its answer; a held or hanging one is cut after a grace.
		close: () => closeWithoutResets(server, CLOSE_GRACE_MS)
	};
}

function reply(res: ServerResponse, answer: { status: number; body: unknown }): void {
	send(res, answer.status, answer.body);
}

function send(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json; charset=UTF-8',
		'content-length': Buffer.byteLength(text)
	});
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
