import { DEFAULT_SHEET_KEY, type SheetKey } from './sheet-key.ts';

/**
 * Art styles (ART_STYLE, or jobs.art_style) and the colour grading an outfit gives a pack. The
 * offline renderer applies them with sharp; image-model prompts describe the same style in words.
 */
export const ART_STYLES = ['cartoon', 'comic', 'pop', 'pastel'] as const;
export type ArtStyle = (typeof ART_STYLES)[number];

export interface StyleRecipe {
	/** Colours left after posterising (fewer = flatter, more cartoon-like). */
	colours: number;
	saturation: number;
	brightness: number;
	/** Dark ink lines along edges, 0 = none. */
	ink: number;
	/** Smoothing before posterising (median window). */
	smooth: number;
	prompt: string;
}

export const STYLE_RECIPES: Record<ArtStyle, StyleRecipe> = {
	cartoon: {
		colours: 14,
		saturation: 1.35,
		brightness: 1.06,
		ink: 0.8,
		smooth: 5,
		prompt: 'bright 2D cartoon sticker, clean bold outlines, soft cel shading'
	},
	comic: {
		colours: 8,
		saturation: 1.2,
		brightness: 1.02,
		ink: 1,
		smooth: 3,
		prompt: 'comic-book sticker, strong black ink lines, flat colours, halftone accents'
	},
	pop: {
		colours: 6,
		saturation: 1.9,
		brightness: 1.1,
		ink: 0.6,
		smooth: 5,
		prompt: 'pop-art sticker, vivid saturated flat colours, thick outlines'
	},
	pastel: {
		colours: 16,
		saturation: 0.85,
		brightness: 1.12,
		ink: 0.3,
		smooth: 7,
		prompt: 'soft pastel sticker, gentle colours, light outlines, cute and friendly'
	}
};

export function pickArtStyle(value: string | null | undefined, fallback: ArtStyle): ArtStyle {
	return (ART_STYLES as readonly string[]).includes(value ?? '') ? (value as ArtStyle) : fallback;
}

/** Badge colours for a pack: derived from the outfit id so every outfit has its own look. */
export interface PackPalette {
	badges: string[];
	ink: string;
	tint: { r: number; g: number; b: number };
}

/** Hues kept away from the chroma green the sheets are drawn on, so the cutter never eats a badge. */
const BADGE_HUES = [330, 45, 200, 15, 270, 55, 190, 350, 25, 230, 300, 5];
/** A badge hue this close to another key's hue is turned to the opposite side of the wheel. */
const KEY_HUE_ROOM = 50;

/** `key`: the flat colour the sheet is drawn on; badges keep away from its hue (green's already are). */
export function paletteForOutfit(outfitId: string, key: SheetKey = DEFAULT_SHEET_KEY): PackPalette {
	const shift = hashString(outfitId) % BADGE_HUES.length;
	const keyHue = hueOf(key.rgb);
	const hues = BADGE_HUES.map((_, i) =>
		awayFrom(BADGE_HUES[(i + shift) % BADGE_HUES.length] ?? 0, key === DEFAULT_SHEET_KEY ? null : keyHue)
	);
	const tintHue = hues[0] ?? 0;
	return {
		badges: hues.map((h, i) => `hsl(${h}, ${i % 2 ? 85 : 75}%, ${i % 3 === 0 ? 62 : 70}%)`),
		ink: '#1f1b2e',
		tint: hslToRgb(tintHue, 0.5, 0.9)
	};
}

function awayFrom(hue: number, keyHue: number | null): number {
	if (keyHue === null) return hue;
	const apart = Math.abs(((hue - keyHue + 540) % 360) - 180);
	return apart < KEY_HUE_ROOM ? (hue + 180) % 360 : hue;
}

function hueOf({ r, g, b }: { r: number; g: number; b: number }): number {
	const max = Math.max(r, g, b);
	const d = max - Math.min(r, g, b);
	if (d === 0) return 0;
	const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
	return h * 60;
}

export function hashString(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
	return h;
}

function hslToRgb(h: number, s: number, l: number): { r: number; g: number; b: number } {
	const k = (n: number) => (n + h / 30) % 12;
	const a = s * Math.min(l, 1 - l);
	const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))));
	return { r: f(0), g: f(8), b: f(4) };
}
