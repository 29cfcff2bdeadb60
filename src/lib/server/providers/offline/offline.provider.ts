import sharp, { type Region } from 'sharp';
import { getFaceDetector, type FaceBox } from '../../media/face-detector.ts';
import { drawFigure } from '../../media/sticker-art.ts';
import { reviewFromLocal } from '../../media/sticker-contact.ts';
import { composeSheet } from '../../media/sticker-sheet.ts';
import { cutPortrait } from '../../media/matte.ts';
import { paletteForOutfit, STYLE_RECIPES } from '../../media/sticker-style.ts';
import { STICKER_VARIANTS } from '../../media/sticker-variants.ts';
import type {
	AnchorReview,
	AppearanceCard,
	CallUsage,
	FigureRequest,
	HeadRequest,
	ImageProvider,
	JobBrief,
	PackReviewRequest,
	ProviderResult,
	SheetRequest,
	SheetReviewRequest,
	StickerReview
} from '../provider.ts';
import { NoFaceFound } from '../../jobs/job-errors.ts';

/**
 * The embedded default: no key, no network, deterministic. Finds the guest's face with the offline
 * face model and draws stickers of the real face on the chosen outfit's costume, recoloured with the
 * outfit's palette, with the brief's captions (media/sticker-art.ts). Sheets are
 * drawn on the same flat background (the job's key) an image model is asked for, so they go through the same cutter
 * and quality gate as paid providers' sheets.
 */
export const OFFLINE_MODEL = 'offline-sharp-1';
const CELL = 512;
/** Tighter than the stickers' portraits: the head and hair, little shoulder. */
const HEAD_ZOOM = 1.25;

export function createOfflineProvider(): ImageProvider {
	return {
		name: 'offline',
		describeAppearance,
		drawAnchor,
		reviewAnchor,
		drawSheet,
		drawFigure: drawOneFigure,
		reviewSheet,
		reviewPack,
		drawHead
	};
}

const usage = (kind: CallUsage['kind'], images: number, resolution?: string): CallUsage => ({
	kind,
	model: OFFLINE_MODEL,
	images,
	resolution,
	promptTokens: 0,
	outputTokens: 0
});

async function describeAppearance(brief: JobBrief): Promise<ProviderResult<AppearanceCard>> {
	const detector = await getFaceDetector();
	const faces = await detector.findFaces(brief.selfie);
	const face = faces.sort((a, b) => b.width * b.height - a.width * a.height)[0];
	if (!face) throw new NoFaceFound(usage('vision', 0));
	const hair = await sharp(brief.selfie)
		.extract(hairRegion(face))
		.stats()
		.catch(() => null);
	const colour = hair
		? `hair colour around rgb(${hair.dominant.r}, ${hair.dominant.g}, ${hair.dominant.b})`
		: 'hair not measured';
	const summary = `one person; ${colour}; ${faces.length} face(s) in the photo`;
	return { value: { summary, faceBox: face }, usage: usage('vision', 0) };
}

async function drawAnchor(brief: JobBrief, appearance: AppearanceCard): Promise<ProviderResult<Buffer>> {
	const figure = await draw(brief, appearance, 0, 768);
	const anchor = await sharp(figure).flatten({ background: '#ffffff' }).png().toBuffer();
	return { value: anchor, usage: usage('image', 1, '768x768') };
}

/** Offline likeness is the photo itself; the check that matters is that the anchor shows exactly one face. */
async function reviewAnchor(
	_brief: JobBrief,
	_appearance: AppearanceCard,
	anchor: Buffer
): Promise<ProviderResult<AnchorReview>> {
	const faces = await (await getFaceDetector()).findFaces(anchor);
	const ok = faces.length === 1;
	return {
		value: { ok, likeness: ok ? 1 : 0, notes: [`${faces.length} face(s) on the anchor`] },
		usage: usage('qa', 0)
	};
}

/**
 * Offline has no vision model: its pack review is the local gate's verdicts, still returned as one
 * qa_pack call (cost 0) so spend and stage tables look the same whatever provider ran.
 */
async function reviewPack(request: PackReviewRequest): Promise<ProviderResult<StickerReview[]>> {
	return { value: request.local.map((verdict, i) => reviewFromLocal(i + 1, verdict)), usage: usage('qa', 0) };
}

/** qa_sheet offline: the local gate's verdicts under the stickers' pack numbers (cost 0). */
async function reviewSheet(request: SheetReviewRequest): Promise<ProviderResult<StickerReview[]>> {
	return {
		value: request.local.map((verdict, i) => reviewFromLocal(request.numbers[i] ?? i + 1, verdict)),
		usage: usage('qa', 0)
	};
}

/** The guest's own head from the selfie, in the job's art style: offline composites are the real face. */
async function drawHead(request: HeadRequest): Promise<ProviderResult<Buffer>> {
	const face = request.appearance.faceBox ?? (await describeAppearance(request.brief)).value.faceBox!;
	const portrait = await cutPortrait(
		request.brief.selfie,
		face,
		STYLE_RECIPES[request.brief.artStyle],
		HEAD_ZOOM,
		CELL
	);
	return { value: portrait.png, usage: usage('image', 1, `${portrait.width}x${portrait.height}`) };
}

async function drawSheet(request: SheetRequest): Promise<ProviderResult<Buffer>> {
	// Figures are drawn three at a time: sharp works in its own threads, so they overlap on 2 cores
	// while memory stays at a few 512-px images.
	const figures: Buffer[] = [];
	for (let i = 0; i < request.variants.length; i += 3) {
		const batch = request.variants
			.slice(i, i + 3)
			.map((_, k) => draw(request.brief, request.appearance, request.firstIndex + i + k, CELL));
		figures.push(...(await Promise.all(batch)));
	}
	const layout = { cols: request.cols, rows: request.rows, width: CELL * request.cols, height: CELL * request.rows };
	const sheet = await composeSheet(figures, layout, request.brief.sheetKey.rgb);
	return { value: sheet, usage: usage('image', 1, `${layout.width}x${layout.height}`) };
}

/** A redrawn figure looks different from the one it replaces: each attempt shifts the badge colours. */
async function drawOneFigure(request: FigureRequest): Promise<ProviderResult<Buffer>> {
	const figure = await draw(request.brief, request.appearance, request.index, CELL, request.attempt);
	const sheet = await composeSheet(
		[figure],
		{ cols: 1, rows: 1, width: CELL + 64, height: CELL + 64 },
		request.brief.sheetKey.rgb
	);
	return { value: sheet, usage: usage('image', 1, `${CELL + 64}x${CELL + 64}`) };
}

async function draw(
	brief: JobBrief,
	appearance: AppearanceCard,
	index: number,
	size: number,
	attempt = 1
): Promise<Buffer> {
	const variant = STICKER_VARIANTS[index % STICKER_VARIANTS.length]!;
	const face = appearance.faceBox ?? (await describeAppearance(brief)).value.faceBox!;
	const palette = paletteForOutfit(attempt > 1 ? `${brief.outfit.id}#${attempt}` : brief.outfit.id, brief.sheetKey);
	const caption = brief.captions[index % STICKER_VARIANTS.length] ?? variant.caption[brief.locale];
	return drawFigure({
		selfie: brief.selfie,
		face,
		variant,
		index,
		style: brief.artStyle,
		palette,
		outfit: brief.outfit,
		caption,
		size
	});
}

function hairRegion(face: FaceBox): Region {
	const height = Math.max(4, Math.round(face.height * 0.18));
	return {
		left: Math.max(0, Math.round(face.x + face.width * 0.2)),
		top: Math.max(0, Math.round(face.y - height * 0.5)),
		width: Math.max(4, Math.round(face.width * 0.6)),
		height
	};
}
