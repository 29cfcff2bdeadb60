import sharp from 'sharp';
import type { Locale } from '../../i18n/locale.ts';
import type { FaceBox } from './face-detector.ts';
import { cutPortrait } from './matte.ts';
import { badgeSvg, captionSvg, decorationSvg } from './sticker-decor.ts';
import { STYLE_RECIPES, type ArtStyle, type PackPalette } from './sticker-style.ts';
import type { StickerVariant } from './sticker-variants.ts';

/**
 * Offline drawing of one sticker figure of the real guest: a stylised head-and-shoulders portrait
 * on a coloured badge, with emoji-themed decorations and a caption, on a transparent canvas.
 * Deterministic: the same selfie, variant, style and palette give the same pixels.
 */
export interface FigureInput {
	selfie: Buffer;
	face: FaceBox;
	variant: StickerVariant;
	index: number;
	style: ArtStyle;
	palette: PackPalette;
	locale: Locale;
	size: number;
}

export async function drawFigure(input: FigureInput): Promise<Buffer> {
	const { size, variant, palette } = input;
	const recipe = STYLE_RECIPES[input.style];
	const portraitWidth = Math.round(size * 0.64);
	const portrait = await cutPortrait(input.selfie, input.face, recipe, variant.zoom, portraitWidth);
	const oriented = await sharp(portrait.png)
		.flop(variant.mirror)
		.rotate(variant.tilt, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
		.png()
		.toBuffer({ resolveWithObject: true });
	const fill = palette.badges[input.index % palette.badges.length] ?? '#ffd23f';
	const accent = palette.badges[(input.index + 5) % palette.badges.length] ?? '#ff3b6b';
	const back = svgCanvas(size, badgeSvg(variant.shape, size, fill, palette.ink));
	const front = svgCanvas(size, decorationSvg(variant.decoration, size, accent, palette.ink) + captionSvg(variant.caption[input.locale], size, '#ffffff', palette.ink));
	const left = Math.round((size - oriented.info.width) / 2);
	const top = Math.round(size * 0.86 - oriented.info.height);
	const portraitLayer = await sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
		.composite([{ input: oriented.data, left: Math.max(0, left), top: Math.max(0, top) }])
		.png()
		.toBuffer();
	return sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
		.composite([{ input: back }, { input: portraitLayer }, { input: front }])
		.png()
		.toBuffer();
}

function svgCanvas(size: number, body: string): Buffer {
	return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${body}</svg>`);
}
