import sharp from 'sharp';
import { headLayer } from './photo-head.ts';
import type { Random } from './seeded.ts';

/**
 * One figure as the fake draws it, with nothing from the product: a chibi body of plain shapes in an
 * outfit colour, the guest's face (photo pixels) as the head, and a caption plate under the feet —
 * touching them or a few pixels apart, as image models draw captions. Never green, so a test can
 * tell every trace of the sheet colour from the figure.
 */
export interface FigureArt {
	png: Buffer;
	width: number;
	height: number;
	/** Where the caption plate is, in the figure's own pixels (null when drawn without one). */
	caption: { x: number; y: number; width: number; height: number } | null;
}

export const CAPTION_FILL = { r: 255, g: 226, b: 102 } as const;
const OUTFITS = ['#1f2a6e', '#b41e32', '#6e3296', '#e0781e', '#784628', '#2a2a2a', '#c02880', '#2864b4'];
const INK = '#2a1a14';

export interface FigureInput {
	face: Buffer;
	/** Width of the figure's body; the whole figure is about 1.6× as tall. */
	width: number;
	caption?: string;
	random: Random;
}

export async function drawFigureArt(input: FigureInput): Promise<FigureArt> {
	const w = Math.round(input.width);
	const headD = w * 0.56;
	const bodyBottom = w * 1.36;
	const gap = input.caption === undefined ? 0 : Math.round(w * (-0.01 + input.random() * 0.035));
	const plateH = Math.round(w * 0.2);
	const plateY = Math.round(bodyBottom + gap);
	const height = Math.round(input.caption === undefined ? bodyBottom + w * 0.02 : plateY + plateH + w * 0.02);
	const outfit = OUTFITS[Math.floor(input.random() * OUTFITS.length)]!;
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${height}">${body(w, outfit, input.random)}${input.caption === undefined ? '' : plate(w, plateY, plateH, input.caption)}</svg>`;
	const head = await headLayer(input.face, headD);
	const png = await sharp(Buffer.from(svg))
		.composite([{ input: head, left: Math.round((w - headD) / 2), top: Math.round(w * 0.02) }])
		.png()
		.toBuffer();
	const caption =
		input.caption === undefined
			? null
			: { x: Math.round(w * 0.04), y: plateY, width: Math.round(w * 0.92), height: plateH };
	return { png, width: w, height, caption };
}

/** Torso, arms in one of a few poses, legs: rounded shapes with an ink outline. */
function body(w: number, outfit: string, random: Random): string {
	const stroke = `stroke="${INK}" stroke-width="${Math.max(2, w * 0.02)}"`;
	const armUp = random() < 0.5;
	const leftAngle = armUp ? -140 + random() * 40 : 10 + random() * 30;
	const rightAngle = armUp ? 100 + random() * 40 : -10 - random() * 30;
	const arm = (x: number, angle: number) =>
		`<rect x="${x - w * 0.06}" y="${w * 0.6}" width="${w * 0.12}" height="${w * 0.34}" rx="${w * 0.06}" fill="${outfit}" ${stroke} transform="rotate(${angle} ${x} ${w * 0.62})"/>`;
	return [
		`<rect x="${w * 0.36}" y="${w * 1.0}" width="${w * 0.11}" height="${w * 0.34}" rx="${w * 0.04}" fill="#3c3c46" ${stroke}/>`,
		`<rect x="${w * 0.53}" y="${w * 1.0}" width="${w * 0.11}" height="${w * 0.34}" rx="${w * 0.04}" fill="#3c3c46" ${stroke}/>`,
		arm(w * 0.3, leftAngle),
		arm(w * 0.7, rightAngle),
		`<rect x="${w * 0.27}" y="${w * 0.56}" width="${w * 0.46}" height="${w * 0.5}" rx="${w * 0.1}" fill="${outfit}" ${stroke}/>`
	].join('');
}

function plate(w: number, y: number, h: number, text: string): string {
	const fill = `rgb(${CAPTION_FILL.r},${CAPTION_FILL.g},${CAPTION_FILL.b})`;
	const size = Math.round(h * 0.5);
	return `<rect x="${w * 0.04}" y="${y}" width="${w * 0.92}" height="${h}" rx="${h * 0.3}" fill="${fill}" stroke="${INK}" stroke-width="${Math.max(2, w * 0.015)}"/><text x="${w / 2}" y="${y + h * 0.68}" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${size}" fill="${INK}" text-anchor="middle">${escapeXml(text.slice(0, 18))}</text>`;
}

function escapeXml(text: string): string {
	return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
