import type { OutfitPalette } from '../../schemas/outfit.ts';
import type { Rgb } from './sticker-grid.ts';

/**
 * The flat colour a job's sheets are drawn on and keyed out of (image models give no transparency).
 * Green by default; an outfit whose costume or trim comes near green — a green or teal costume,
 * which keyed on green comes out with holes — gets the key of the three that is farthest from every
 * colour of its figure, in CIELAB (ΔE, the distance people see; 2.3 is a just-noticeable difference).
 * The figure's colours are the outfit's body and trim plus skin and hair tones every guest brings.
 */
export type SheetKeyName = 'green' | 'magenta' | 'blue';

export interface SheetKey {
	name: SheetKeyName;
	rgb: Rgb;
	/** As prompts name it (upper-case #RRGGBB). */
	hex: string;
}

export const SHEET_KEYS: Record<SheetKeyName, SheetKey> = {
	green: { name: 'green', rgb: { r: 0, g: 177, b: 64 }, hex: '#00B140' },
	magenta: { name: 'magenta', rgb: { r: 255, g: 0, b: 255 }, hex: '#FF00FF' },
	blue: { name: 'blue', rgb: { r: 0, g: 71, b: 187 }, hex: '#0047BB' }
};

export const DEFAULT_SHEET_KEY = SHEET_KEYS.green;

/**
 * Green stays the key while every figure colour is at least this far from it: models draw chroma
 * green most reliably, and most costumes are far from it. Below it the keyer starts to eat the
 * costume: #1a9e8f teal is ΔE ≈ 50 from the green key and mattes at about half opacity.
 */
export const GREEN_KEEPS_ABOVE_DELTA_E = 70;

/** Skin (light, medium, dark) and dark hair: on every figure whatever the outfit. */
const EVERY_FIGURE = ['#f1c27d', '#c68642', '#8d5524', '#2b1d14'];

export function chooseSheetKey(palette: Pick<OutfitPalette, 'body' | 'trim'>): SheetKey {
	const figure = [palette.body, palette.trim, ...EVERY_FIGURE].map((hex) => toLab(hexToRgb(hex)));
	const clearance = (key: SheetKey) => Math.min(...figure.map((lab) => deltaE(lab, toLab(key.rgb))));
	if (clearance(SHEET_KEYS.green) >= GREEN_KEEPS_ABOVE_DELTA_E) return SHEET_KEYS.green;
	const ranked = Object.values(SHEET_KEYS).sort((a, b) => clearance(b) - clearance(a));
	return ranked[0]!;
}

/** The smallest ΔE between the key and the given colours (for diagnostics and tests). */
export function keyClearance(key: SheetKey, colours: string[]): number {
	return Math.min(...colours.map((hex) => deltaE(toLab(hexToRgb(hex)), toLab(key.rgb))));
}

export function hexToRgb(hex: string): Rgb {
	const n = Number.parseInt(hex.slice(1), 16);
	return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

type Lab = [number, number, number];

/** CIE76 ΔE: the straight distance in CIELAB. */
function deltaE(a: Lab, b: Lab): number {
	return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** sRGB (D65) → CIELAB. */
export function toLab({ r, g, b }: Rgb): Lab {
	const [lr, lg, lb] = [r, g, b].map((v) => {
		const c = v / 255;
		return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	}) as [number, number, number];
	const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047;
	const y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
	const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883;
	const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);
	return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
