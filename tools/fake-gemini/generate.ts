import sharp from 'sharp';
import { answer, blockedPrompt, imageParts, jsonParts, noCandidates, stopped, type Usage } from './answers.ts';
import { draftOf, drawRequested, imageKindOf } from './draw.ts';
import { errorBody, live, matches, type ArmedFault, type FaultKind, type RequestKind } from './faults.ts';
import { dimensionsFor, IMAGE_TOKENS, invalidImageConfig } from './image-size.ts';
import { invalidArgument } from './models.ts';
import { hashText } from './seeded.ts';
import { packVerdict, packVerdictNames } from './verdicts.ts';

/**
 * One generateContent request: which kind it is (read from the prompt), which armed faults and
 * behaviours apply to it (at most one of each kind; each use counts), and the answer — an error
 * body, a refusal, JSON text or a drawn image of the asked (or, with default_size, the default)
 * size.
 */
export interface GenerateRequest {
	contents: { role?: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
	generationConfig?: {
		responseMimeType?: string;
		responseModalities?: string[];
		responseJsonSchema?: unknown;
		responseSchema?: unknown;
		imageConfig?: { imageSize?: string; aspectRatio?: string };
	};
}

export interface FakeGeminiCall {
	model: string;
	kind: 'image' | 'json';
	request: RequestKind;
	status: number;
	/** The first armed fault or behaviour that applied, and all of them. */
	fault?: FaultKind;
	faults: FaultKind[];
	prompt: string;
	imageConfig?: { imageSize?: string; aspectRatio?: string };
	/** Whether a JSON request carried a schema (responseJsonSchema or responseSchema). */
	schema: boolean;
	/** The size of the image answered, when one was. */
	size?: { width: number; height: number };
	at: number;
	/** The model that answered (modelVersion): the asked one, or what a deprecated id is redirected to. */
	modelVersion?: string;
	/** When the client closed the connection before the answer was sent (an aborted call). */
	closedByClientAt?: number;
}

export interface Reply {
	status: number;
	body: unknown;
}

/** What one fake server keeps between requests. */
export interface FakeState {
	faults: ArmedFault[];
	calls: FakeGeminiCall[];
	/** How often each prompt was asked, so a redraw of the same prompt draws differently. */
	seeds: Map<number, number>;
}

const INPUT_IMAGE_TOKENS = 1120;
const ERROR_KINDS: FaultKind[] = [
	'quota_minute',
	'quota_day',
	'billing',
	'server',
	'key_invalid',
	'permission_denied',
	'location'
];

/**
 * `servedBy`: the model that answers (a deprecated id is served by its replacement, and the answer's
 * modelVersion says so); `closed`: aborted when the client closes the connection.
 */
export async function generate(
	model: string,
	request: GenerateRequest,
	state: FakeState,
	options: { servedBy?: string; closed?: AbortSignal } = {}
): Promise<Reply> {
	const config = request.generationConfig ?? {};
	const parts = request.contents.flatMap((c) => c.parts);
	const prompt = parts.map((p) => p.text ?? '').join(' ');
	const json = config.responseMimeType === 'application/json';
	const kind = json ? jsonKindOf(prompt) : imageKindOf(prompt);
	const active = takeFaults(state.faults, kind, prompt);
	const has = (k: FaultKind) => active.find((f) => f.kind === k);
	const call: FakeGeminiCall = {
		model,
		kind: json ? 'json' : 'image',
		request: kind,
		status: 200,
		fault: active[0]?.kind,
		faults: active.map((f) => f.kind),
		prompt,
		imageConfig: config.imageConfig,
		schema: Boolean(config.responseJsonSchema ?? config.responseSchema),
		at: Date.now()
	};
	state.calls.push(call);
	options.closed?.addEventListener('abort', () => (call.closedByClientAt = Date.now()), { once: true });
	const reply = await replyTo({
		model,
		request,
		json,
		kind,
		prompt,
		has,
		call,
		seeds: state.seeds,
		closed: options.closed
	});
	call.status = reply.status;
	if (reply.status === 200 && reply.body && typeof reply.body === 'object' && 'modelVersion' in reply.body) {
		call.modelVersion = options.servedBy ?? model;
		(reply.body as { modelVersion: string }).modelVersion = call.modelVersion;
	}
	return reply;
}

interface Context {
	model: string;
	request: GenerateRequest;
	json: boolean;
	kind: RequestKind;
	prompt: string;
	has: (kind: FaultKind) => ArmedFault | undefined;
	call: FakeGeminiCall;
	seeds: Map<number, number>;
	closed?: AbortSignal;
}

async function replyTo(ctx: Context): Promise<Reply> {
	const { has, prompt } = ctx;
	const slow = has('slow');
	if (slow) await waitUnlessClosed(slow.delayMs, ctx.closed);
	const failure = ERROR_KINDS.map((k) => has(k) && errorBody(k, ctx.model, has(k))).find(Boolean);
	if (failure) return failure;
	const invalid = invalidImageConfig(ctx.request.generationConfig?.imageConfig ?? {});
	if (invalid) return invalidArgument(invalid);
	const images = ctx.request.contents
		.flatMap((c) => c.parts)
		.filter((p) => p.inlineData)
		.map((p) => Buffer.from(p.inlineData!.data, 'base64'));
	const usage: Usage = { promptTokens: Math.ceil(prompt.length / 4) + images.length * INPUT_IMAGE_TOKENS };
	const blocked = has('blocked_prompt');
	if (blocked) return ok(blockedPrompt(blocked.reason ?? 'SAFETY', usage));
	if (has('no_candidates')) return ok(noCandidates(usage));
	const finish = has('finish');
	if (finish) return ok(stopped(finish.reason ?? 'IMAGE_SAFETY', { ...usage, thoughtsTokens: 40 }));
	if (ctx.json && has('unreadable_json'))
		return ok(
			answer([{ text: 'I compared the pictures, but I cannot give the verdict in the requested format.' }], {
				...usage,
				textTokens: 18,
				thoughtsTokens: 24
			})
		);
	if (ctx.json)
		return ok(
			answer(jsonParts(jsonFor(ctx), { fenced: Boolean(has('fenced_json')), chatty: Boolean(has('chatty')) }), {
				...usage,
				textTokens: 60,
				thoughtsTokens: 24
			})
		);
	if (has('text_only'))
		return ok(
			answer([{ text: 'I can describe the sticker sheet, but I cannot draw this picture right now.' }], {
				...usage,
				textTokens: 22
			})
		);
	return ok(await imageAnswer(ctx, images, usage));
}

async function imageAnswer(ctx: Context, images: Buffer[], usage: Usage): Promise<unknown> {
	const asked = ctx.has('default_size') ? {} : (ctx.request.generationConfig?.imageConfig ?? {});
	const first = images[0] ? await sharp(images[0]).metadata() : undefined;
	const size = dimensionsFor(
		asked,
		first?.width && first.height ? { width: first.width, height: first.height } : undefined
	);
	const short = ctx.has('wrong_count');
	const countOffset = short ? -1 : ctx.has('extra_figure') ? 1 : 0;
	const emptyCell = short?.stickers[0] !== undefined ? short.stickers[0] - 1 : undefined;
	const drawn = await drawRequested({
		kind: ctx.kind as 'anchor',
		prompt: ctx.prompt,
		references: images,
		width: size.width,
		height: size.height,
		seed: seedFor(ctx.seeds, ctx.prompt),
		countOffset,
		emptyCell,
		format: ctx.has('jpeg') ? 'jpeg' : 'png'
	});
	ctx.call.size = { width: size.width, height: size.height };
	const image = { mimeType: drawn.mimeType, data: drawn.image.toString('base64') };
	const draft = ctx.has('chatty') ? await draftOf(drawn.image) : null;
	const parts = imageParts(
		image,
		draft && { draft: { mimeType: draft.mimeType, data: draft.image.toString('base64') } }
	);
	return answer(parts, {
		...usage,
		imageTokens: IMAGE_TOKENS[size.imageSize] ?? 1120,
		textTokens: draft ? 24 : 0,
		thoughtsTokens: draft ? 180 : 0
	});
}

function jsonFor(ctx: Context): string {
	if (ctx.kind === 'passport')
		return JSON.stringify({
			summary: 'one smiling adult with short dark hair and light stubble',
			hair: 'short, dark',
			face: 'oval, light stubble',
			accessories: 'none'
		});
	if (ctx.kind === 'anchor_review')
		return JSON.stringify({ ok: true, likeness: 0.86, notes: ['same person, one full figure'] });
	const rejecting = ctx.has('qa_reject') ?? ctx.has('sheet_reject');
	return packVerdict(ctx.prompt, rejecting?.stickers ?? []);
}

function jsonKindOf(prompt: string): RequestKind {
	if (/^Describe/.test(prompt)) return 'passport';
	if (/contact sheet/.test(prompt)) return /one sheet of the pack/.test(prompt) ? 'sheet_review' : 'pack_review';
	return 'anchor_review';
}

/** The first armed fault of each kind that applies to this request; each one taken counts a use. */
function takeFaults(faults: ArmedFault[], kind: RequestKind, prompt: string): ArmedFault[] {
	const taken: ArmedFault[] = [];
	for (const fault of faults) {
		if (!live(fault) || taken.some((t) => t.kind === fault.kind)) continue;
		if (!applies(fault, kind, prompt)) continue;
		fault.used++;
		taken.push(fault);
	}
	return taken;
}

function applies(fault: ArmedFault, kind: RequestKind, prompt: string): boolean {
	if (fault.kind === 'qa_reject') return kind === 'pack_review';
	if (fault.kind === 'sheet_reject') return kind === 'sheet_review' && packVerdictNames(prompt, fault.stickers);
	if (['wrong_count', 'extra_figure'].includes(fault.kind)) return kind === 'sheet' && matches(fault.match, kind);
	if (fault.kind === 'fenced_json' || fault.kind === 'unreadable_json')
		return ['passport', 'anchor_review', 'sheet_review', 'pack_review'].includes(kind) && matches(fault.match, kind);
	if (['text_only', 'jpeg', 'default_size'].includes(fault.kind))
		return ['anchor', 'sheet', 'figure', 'head'].includes(kind) && matches(fault.match, kind);
	return matches(fault.match, kind);
}

/** The same prompt draws differently each time it is asked again (a redraw), the same on every run. */
function seedFor(seen: Map<number, number>, prompt: string): number {
	const hash = hashText(prompt);
	const n = (seen.get(hash) ?? 0) + 1;
	seen.set(hash, n);
	return (hash + n * 0x9e3779b9) >>> 0;
}

/** The slow answer's wait; the real API stops working on a request whose client went away. */
function waitUnlessClosed(ms: number, closed?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		closed?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
	});
}

function ok(body: unknown): Reply {
	return { status: 200, body };
}
