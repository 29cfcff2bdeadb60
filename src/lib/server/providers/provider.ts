import type { SheetKey } from '../media/sheet-key.ts';
import type { Locale } from '../../i18n/locale.ts';
import type { OutfitSnapshot } from '../../schemas/outfit.ts';
import type { StickerVerdict } from '../media/sticker-qa.ts';
import type { ArtStyle } from '../media/sticker-style.ts';
import type { StickerVariant } from '../media/sticker-variants.ts';

/**
 * One interface for every image provider (offline, gemini, openai). Each method is one provider
 * call; it returns what it made plus the call's usage, so the pipeline records one api_usage row
 * per call. Failures are ProviderError with a class that decides what the queue does.
 */
export type ProviderName = 'offline' | 'gemini' | 'openai';
export type UsageKind = 'image' | 'vision' | 'qa';

export interface CallUsage {
	kind: UsageKind;
	model: string;
	promptTokens?: number;
	outputTokens?: number;
	imageTokens?: number;
	thoughtsTokens?: number;
	images: number;
	/** The drawn image's size as it came back ("2512x1680"), not the size asked for. */
	resolution?: string;
	httpStatus?: number;
	/** Per-image price where the provider bills per image rather than per token (OpenAI). */
	imageCostUsd?: number;
	/**
	 * The provider billed this call even though it failed for us (an answer we could not use, a call
	 * abandoned after the provider took it): its tokens are costed like a success's.
	 */
	billed?: boolean;
	/** The tokens are our estimate (a call abandoned before its answer told us), not the provider's count. */
	estimated?: boolean;
}

export interface ProviderResult<T> {
	value: T;
	usage: CallUsage;
}

/** The appearance card ("passport"): what the guest looks like, in words, cached in jobs.appearance_json. */
export interface AppearanceCard {
	summary: string;
	hair?: string;
	face?: string;
	accessories?: string;
	/** Face box in the selfie, when the provider found it locally (offline). */
	faceBox?: { x: number; y: number; width: number; height: number; score: number };
}

export interface AnchorReview {
	ok: boolean;
	likeness: number;
	notes: string[];
}

export interface JobBrief {
	jobId: number;
	selfie: Buffer;
	faceCrop: Buffer;
	/** The outfit as the job keeps it: its prompt text and palette go into every drawing request. */
	outfit: OutfitSnapshot;
	/** The twelve sticker captions in the guest's language, in pack order (the event's or the built-in ones). */
	captions: string[];
	artStyle: ArtStyle;
	locale: Locale;
	/** The flat colour sheets, the anchor and the head are drawn on and keyed out of, chosen away from the outfit's colours (media/sheet-key.ts). */
	sheetKey: SheetKey;
	/** The provider refused this request once (a safety or no-image stop): ask again more gently. */
	softened?: boolean;
	/** The job's abort: a provider call in flight stops (its connection closed) when the job is aborted. */
	signal?: AbortSignal;
}

export interface SheetRequest {
	brief: JobBrief;
	appearance: AppearanceCard;
	anchor: Buffer;
	layoutGuide: Buffer;
	variants: StickerVariant[];
	firstIndex: number;
	cols: number;
	rows: number;
	/** The layout guide's shape ("3:2"); the sheet is asked for in it, so cells come out as in the guide. */
	aspectRatio: string;
	/** Attempt number (1-based): providers vary their seed with it so a retry draws differently. */
	attempt: number;
}

export interface FigureRequest {
	brief: JobBrief;
	appearance: AppearanceCard;
	anchor: Buffer;
	variant: StickerVariant;
	index: number;
	attempt: number;
}

/** The finished pack, for the provider's own review (qa_pack) before delivery. */
export interface PackReviewRequest {
	brief: JobBrief;
	anchor: Buffer;
	/** Sticker PNGs in pack order: sticker n is stickers[n - 1]. */
	stickers: Buffer[];
	/** The local gate's verdicts (face count, blank, head cut), same order; offline answers from these. */
	local: StickerVerdict[];
}

/**
 * One sheet's figures, just cut, for the provider's review (qa_sheet): likeness to the anchor, one
 * person, not cropped. `numbers` are the stickers' numbers in the pack; verdicts name them.
 */
export interface SheetReviewRequest extends PackReviewRequest {
	sheet: number;
	numbers: number[];
}

/** The guest's head alone in the job's art style (stage `heads`), pasted onto figures in composite mode. */
export interface HeadRequest {
	brief: JobBrief;
	appearance: AppearanceCard;
	anchor: Buffer;
}

/** One sticker's verdict from qa_sheet or qa_pack: ok only when it looks like the anchor, shows one person and is not cropped. */
export interface StickerReview {
	n: number;
	ok: boolean;
	likeness: number;
	onePerson: boolean;
	cropped: boolean;
	notes: string[];
}

export interface ImageProvider {
	readonly name: ProviderName;
	describeAppearance(brief: JobBrief): Promise<ProviderResult<AppearanceCard>>;
	drawAnchor(brief: JobBrief, appearance: AppearanceCard): Promise<ProviderResult<Buffer>>;
	reviewAnchor(brief: JobBrief, appearance: AppearanceCard, anchor: Buffer): Promise<ProviderResult<AnchorReview>>;
	/** A sheet of cols×rows figures on the flat sheet background (see media/sticker-sheet.ts). */
	drawSheet(request: SheetRequest): Promise<ProviderResult<Buffer>>;
	/** One figure on the flat background, to replace a bad one. */
	drawFigure(request: FigureRequest): Promise<ProviderResult<Buffer>>;
	/** One review of a sheet's cut figures (qa_sheet): a verdict per figure, named by pack number. */
	reviewSheet(request: SheetReviewRequest): Promise<ProviderResult<StickerReview[]>>;
	/** One review of the whole pack (qa_pack): a verdict per sticker, in pack order. */
	reviewPack(request: PackReviewRequest): Promise<ProviderResult<StickerReview[]>>;
	/** The guest's head (face and hair) alone, facing the viewer, for composite stickers. */
	drawHead(request: HeadRequest): Promise<ProviderResult<Buffer>>;
}

/**
 * What went wrong, in the queue's terms:
 * - rate_minute: per-minute quota (429) — the queue is held for the provider's retry delay and the
 *   call waits it out; never a job attempt (a job still held after its waits goes back to the queue,
 *   its attempt refunded);
 * - rate_day: per-day quota — the queue pauses until midnight Pacific, operators are told;
 * - billing: no funds — maintenance (source auto), operators are told;
 * - server: 5xx, timeouts, network — retried, then the job backs off;
 * - bad_output: the provider answered but with nothing usable — counts as a job attempt;
 * - blocked: the provider stopped short of an answer (a safety or recitation stop, no image, an
 *   empty answer) — asked once more with a softened prompt, then counts as a job attempt;
 * - refused: the provider will not draw this at all (prohibited content, a blocklist) — the job
 *   fails at once and the guest is told kindly, without blame;
 * - model_missing: the configured model is unknown or retired (404 NOT_FOUND) — no retry: the queue
 *   pauses (maintenance, source config) until the setting the message names is changed;
 * - access: the provider will not take the key, its project lacks permission, or it does not serve
 *   the caller's location — no retry: the queue pauses (maintenance, source config), admins are told.
 */
export type ProviderFailure =
	'rate_minute' | 'rate_day' | 'billing' | 'server' | 'bad_output' | 'blocked' | 'refused' | 'model_missing' | 'access';

export class ProviderError extends Error {
	constructor(
		readonly failure: ProviderFailure,
		message: string,
		readonly usage: Partial<CallUsage> = {},
		/** Seconds the provider asked us to wait (RetryInfo / Retry-After), if it said. */
		readonly retryAfterSeconds?: number
	) {
		super(message);
		this.name = 'ProviderError';
	}
}
