import { STYLE_RECIPES } from '../../media/sticker-style.ts';
import type { AppearanceCard, JobBrief, SheetRequest } from '../provider.ts';
import type { StickerVariant } from '../../media/sticker-variants.ts';
import { outfitPhrase } from '../outfit-words.ts';

/**
 * The words sent to Gemini. Image models give no transparency: always ask for a flat known colour,
 * the job's key (green, or the one its outfit needs: media/sheet-key.ts), the only hex in a prompt.
 */
export const PASSPORT_PROMPT =
	'Describe the one person in this photo for an illustrator, as JSON with keys summary, hair, face, accessories. Only what is visible; no names, no guesses about identity.';

export function anchorPrompt(brief: JobBrief, card: AppearanceCard): string {
	return [
		`Draw one full-body character of the person in the reference photo, ${outfitPhrase(brief.outfit)}.`,
		`Style: ${STYLE_RECIPES[brief.artStyle].prompt}. Keep the face recognisable: ${card.summary}.`,
		`Plain flat ${brief.sheetKey.hex} background, no text, no shadow on the background.`
	].join(' ');
}

export const REVIEW_PROMPT =
	'First image: the reference photo. Second: a drawing of that person. Answer as JSON {"ok": boolean, "likeness": number 0..1, "notes": string[]} — ok when it clearly shows the same single person in one full figure.';

const VERDICT_SHAPE =
	'{"stickers": [{"n": number, "ok": boolean, "likeness": number, "onePerson": boolean, "cropped": boolean, "notes": string[]}]}';

/** qa_pack: the anchor, then the numbered contact sheet of the whole pack; the model names each sticker by its number. */
export function packReviewPrompt(count: number): string {
	return [
		`First image: the anchor drawing of a person. Second: a contact sheet of ${count} numbered stickers (1–${count}, left to right, top to bottom) meant to show that same person — the whole pack.`,
		'For every sticker judge: likeness to the anchor (0..1), exactly one person shown, the figure or head cropped by the sticker edge, and whether it matches the rest of the pack (same character, outfit and style).',
		`Answer as JSON ${VERDICT_SHAPE} with all ${count} stickers; ok only when it is clearly the same person, alone, not cropped and consistent with the pack.`
	].join(' ');
}

/** qa_sheet: the same question for the figures of one sheet, labelled with their pack numbers. */
export function sheetReviewPrompt(numbers: number[]): string {
	const first = numbers[0] ?? 1;
	const last = numbers.at(-1) ?? first;
	return [
		`First image: the anchor drawing of a person. Second: a contact sheet of ${numbers.length} numbered stickers (${first}–${last}, left to right, top to bottom), one sheet of the pack, meant to show that same person.`,
		'For every sticker judge: likeness to the anchor (0..1), exactly one person shown, the figure or head cropped by the sticker edge.',
		`Answer as JSON ${VERDICT_SHAPE} with stickers ${first}–${last}; ok only when it is clearly the same person, alone and not cropped.`
	].join(' ');
}

/** heads: the guest's head alone, for pasting onto generated figures (composite stickers). */
export function headPrompt(brief: JobBrief, card: AppearanceCard): string {
	return [
		'Draw only the head and hair of the person in the reference photo, facing the viewer, no neck below the chin, no text.',
		`Style: ${STYLE_RECIPES[brief.artStyle].prompt}, matching the anchor character. Keep the face recognisable: ${card.summary}.`,
		`Plain flat ${brief.sheetKey.hex} background.`
	].join(' ');
}

export function sheetPrompt(request: SheetRequest): string {
	const cells = request.variants
		.map((v, i) => `${i + 1}: ${describeVariant(v, request.firstIndex + i, request.brief)}`)
		.join('; ');
	return [
		`A sticker sheet of the same character as the anchor image: ${request.cols} columns × ${request.rows} rows, exactly ${request.variants.length} separate figures, one per cell of the layout guide, none touching another or the edge.`,
		`Style: ${STYLE_RECIPES[request.brief.artStyle].prompt}, ${outfitPhrase(request.brief.outfit)}. Each figure with its caption under it.`,
		`Cells: ${cells}.`,
		`Flat solid ${request.brief.sheetKey.hex} background everywhere between figures; no grid lines, no numbers, no checkerboard.`
	].join(' ');
}

export function figurePrompt(variant: StickerVariant, index: number, brief: JobBrief): string {
	return `One sticker figure of the same character as the anchor image: ${describeVariant(variant, index, brief)}. Style: ${STYLE_RECIPES[brief.artStyle].prompt}, ${outfitPhrase(brief.outfit)}. Flat solid ${brief.sheetKey.hex} background, figure fully inside the frame.`;
}

/**
 * Asked again after a safety or no-image stop: the same request with the reasons a model gives for
 * such stops answered up front. Appended, so the request still reads as the same kind of request.
 */
const SOFTENING =
	'Keep it gentle and family-friendly: a cheerful cartoon character inspired by the reference, fully clothed, no weapons, no brand logos, no copied artwork, nothing that imitates a real photo.';

export function toned(prompt: string, brief: JobBrief): string {
	return brief.softened ? `${prompt} ${SOFTENING}` : prompt;
}

/** `index` is the sticker's place in the pack (0-based): its caption is the brief's, from the event. */
function describeVariant(v: StickerVariant, index: number, brief: JobBrief): string {
	return `${v.pose}, caption "${brief.captions[index] ?? v.caption[brief.locale]}" ${v.emoji}`;
}
