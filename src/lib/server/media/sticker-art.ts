import sharp from 'sharp';
import type { OutfitFigure, OutfitPalette } from '../../schemas/outfit.ts';
import { fitCaption } from './caption-fit.ts';
import { drawCostumedFigure } from './costume-figure.ts';
import type { FaceBox } from './face-detector.ts';
import { badgeSvg, captionSvg, decorationSvg } from './sticker-decor.ts';
import { STYLE_RECIPES, type ArtStyle, type PackPalette } from './sticker-style.ts';
import type { StickerVariant } from './sticker-variants.ts';

/**
 * Offline drawing of one sticker figure of the real guest: the guest's head on the chosen outfit's
 * costume, on a coloured badge, with emoji-themed decorations and the caption, on a transparent
 * canvas. Deterministic: the same selfie, variant, style, outfit and palette give the same pixels.
 */
export interface FigureInput {
	selfie: Buffer;
	face: FaceBox;
	variant: StickerVariant;
	index: number;
	style: ArtStyle;
	palette: PackPalette;
	outfit: { figure: OutfitFigure; palette: OutfitPalette };
	caption: string;
	size: number;
}

/** The figure stands on this line (a share of the sticker); the caption strip below it stays clear of the costume. */
const BASELINE = 0.83;
/** The costume art's width as a share of the sticker; a variant's zoom brings it closer. */
const FIGURE_SCALE = 0.74;

export async function drawFigure(input: FigureInput): Promise<Buffer> {
	const { size, variant, palette } = input;
	const figure = await drawCostumedFigure({
		selfie: input.selfie,
		face: input.face,
		recipe: STYLE_RECIPES[input.style],
		figure: input.outfit.figure,
		palette: input.outfit.palette,
		size,
		baseline: BASELINE,
		scale: FIGURE_SCALE * Math.min(1.1, variant.zoom)
	});
	const posed = await pose(figure, variant, size);
	const fill = palette.badges[input.index % palette.badges.length] ?? '#ffd23f';
	const accent = palette.badges[(input.index + 5) % palette.badges.length] ?? '#ff3b6b';
	const back = svgCanvas(size, badgeSvg(variant.shape, size, fill, palette.ink));
	const front = svgCanvas(
		size,
		decorationSvg(variant.decoration, size, accent, palette.ink) +
			captionSvg(await fitCaption(input.caption, size), size, '#ffffff', palette.ink)
	);
	return sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
		.composite([{ input: back }, { input: posed }, { input: front }])
		.png()
		.toBuffer();
}

/** The variant's head tilt and facing, turned about the sticker's centre and cut back to its square. */
async function pose(figure: Buffer, variant: StickerVariant, size: number): Promise<Buffer> {
	const turned = await sharp(figure)
		.flop(variant.mirror)
		.rotate(variant.tilt, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
		.raw()
		.toBuffer({ resolveWithObject: true });
	const left = Math.max(0, Math.round((turned.info.width - size) / 2));
	const top = Math.max(0, Math.round((turned.info.height - size) / 2));
	return sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: 4 } })
		.extract({ left, top, width: size, height: size })
		.png()
		.toBuffer();
}

function svgCanvas(size: number, body: string): Buffer {
	return Buffer.from(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${body}</svg>`
	);
}
