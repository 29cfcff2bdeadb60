import sharp from 'sharp';

/**
 * Fitting a sticker's caption inside the sticker: a caption wider than the sticker used to be cut at
 * both edges ("E GALA FOREVE"). The width is measured, not guessed: the caption is rendered once by
 * the same SVG renderer (librsvg, through sharp) at a reference size and the width of its ink taken,
 * stroke included; the width at any other size is that scaled. The type shrinks down to a minimum,
 * then the caption goes on two lines (split at the space that balances them best). A caption that
 * still does not fit is refused by the event editor (events/caption-check.ts); the drawing never cuts
 * it, it shrinks it further instead.
 */
export const CAPTION_FONT_FAMILY = 'DejaVu Sans, Liberation Sans, sans-serif';
/** The stroke around the letters, as a share of the type size (drawn under the fill). */
export const CAPTION_STROKE_SHARE = 0.16;
/** Type size as a share of the sticker's side: short captions (≤ 7 characters) larger. */
const SHORT_SHARE = 0.145;
const LONG_SHARE = 0.12;
/** The smallest type a caption is drawn in and still read on a phone (about 38 px on a 512-px sticker). */
export const MIN_CAPTION_SHARE = 0.075;
/** Room kept clear at each side edge (and for the caption's slight tilt). */
const SIDE_MARGIN_SHARE = 0.045;
const SHORT_CAPTION = 7;

export interface CaptionLayout {
	lines: string[];
	fontSize: number;
	/** False when even two lines at the smallest type are too wide (drawn smaller still). */
	fits: boolean;
}

/** The width the caption may take on a sticker of `size` px. */
export function captionRoom(size: number): number {
	return size * (1 - 2 * SIDE_MARGIN_SHARE);
}

export async function fitCaption(text: string, size: number): Promise<CaptionLayout> {
	const room = captionRoom(size);
	const largest = size * (text.length > SHORT_CAPTION ? LONG_SHARE : SHORT_SHARE);
	const smallest = size * MIN_CAPTION_SHARE;
	const oneLine = Math.min(largest, room / (await inkWidthPerPx(text)));
	if (oneLine >= smallest) return { lines: [text], fontSize: Math.floor(oneLine), fits: true };
	const split = await bestSplit(text, room / smallest);
	if (!split) return { lines: [text], fontSize: Math.floor(oneLine), fits: false };
	const twoLines = Math.min(largest, room / split.widthPerPx);
	return { lines: split.lines, fontSize: Math.floor(twoLines), fits: twoLines >= smallest };
}

/**
 * How many characters like these fit on a sticker of `size` px at the smallest type in two lines:
 * the number the editor's refusal names (wide letters fit fewer than narrow ones).
 */
export async function charactersThatFit(text: string, size: number): Promise<number> {
	const perCharacter = (await inkWidthPerPx(text)) / Math.max(1, text.length);
	return 2 * Math.floor(captionRoom(size) / (size * MIN_CAPTION_SHARE * perCharacter));
}

/**
 * The two lines whose wider one is narrowest, split at a space. Only when no such split fits
 * (`fitsPerPx`: the widest a line may be, per px of type) is a word cut in the middle of the caption:
 * a long single word, or a long word beside a short one.
 */
async function bestSplit(text: string, fitsPerPx: number): Promise<{ lines: string[]; widthPerPx: number } | null> {
	const words = text.trim().split(/\s+/);
	const atSpaces: [string, string][] = [];
	for (let i = 1; i < words.length; i++) atSpaces.push([words.slice(0, i).join(' '), words.slice(i).join(' ')]);
	const best = await narrowest(atSpaces);
	if ((best && best.widthPerPx <= fitsPerPx) || text.length < 2) return best;
	const middle = Math.ceil(text.length / 2);
	const cut = await narrowest([[text.slice(0, middle).trim(), text.slice(middle).trim()]]);
	// A cut word only when it makes the caption fit (or there is no space to split at).
	return !best || (cut && cut.widthPerPx <= fitsPerPx) ? cut : best;
}

async function narrowest(candidates: [string, string][]): Promise<{ lines: string[]; widthPerPx: number } | null> {
	let best: { lines: string[]; widthPerPx: number } | null = null;
	for (const [first, second] of candidates) {
		const widthPerPx = Math.max(await inkWidthPerPx(first), await inkWidthPerPx(second));
		if (!best || widthPerPx < best.widthPerPx) best = { lines: [first, second], widthPerPx };
	}
	return best;
}

const REFERENCE_PX = 100;
const measured = new Map<string, number>();

/** The caption's ink width (letters and stroke) per pixel of type size, measured by rendering it. */
export async function inkWidthPerPx(text: string): Promise<number> {
	const known = measured.get(text);
	if (known !== undefined) return known;
	const height = REFERENCE_PX * 2;
	let width = Math.ceil(REFERENCE_PX * (text.length * 1.2 + 2));
	for (;;) {
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${captionText(text, REFERENCE_PX / 2, REFERENCE_PX * 1.3, REFERENCE_PX, 'start')}</svg>`;
		const { data } = await sharp(Buffer.from(svg)).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
		const [left, right] = inkColumns(data, width, height);
		if (right < width - 1 || width > 40_000) {
			const perPx = right < left ? 0 : (right - left + 1) / REFERENCE_PX;
			if (measured.size > 2000) measured.clear();
			measured.set(text, perPx);
			return perPx;
		}
		width *= 2; // wider than guessed (very wide letters): measure again on a wider canvas
	}
}

/** First and last column with any ink; right < left when there is none. */
function inkColumns(alpha: Buffer, width: number, height: number): [number, number] {
	let left = width;
	let right = -1;
	for (let y = 0; y < height; y++) {
		const row = y * width;
		for (let x = 0; x < left; x++) if (alpha[row + x]! > 0) left = x;
		for (let x = width - 1; x > right; x--) if (alpha[row + x]! > 0) right = x;
	}
	return [left, right];
}

/** One line of caption as SVG text, in the caption's type with its stroke. */
export function captionText(
	text: string,
	x: number,
	y: number,
	fontSize: number,
	anchor: 'start' | 'middle',
	colours = { fill: '#ffffff', ink: '#000000' }
): string {
	return `<text x="${x}" y="${y}" font-family="${CAPTION_FONT_FAMILY}" font-weight="bold" font-size="${fontSize}" text-anchor="${anchor}" fill="${colours.fill}" stroke="${colours.ink}" stroke-width="${fontSize * CAPTION_STROKE_SHARE}" stroke-linejoin="round" paint-order="stroke">${escapeXml(text)}</text>`;
}

function escapeXml(text: string): string {
	return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
