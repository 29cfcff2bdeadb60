import type { OutfitSnapshot } from '../../schemas/outfit.ts';

/**
 * The outfit in words for image models: the operator's prompt text and the palette, each colour
 * named the way a person would say it. Names, not hex codes: the only hex in a drawing prompt is the
 * flat background colour the cutter keys out, and a second one would compete with it. Gemini and
 * OpenAI prompts carry the same phrase.
 */
export function outfitPhrase(outfit: OutfitSnapshot): string {
	const { body, trim } = outfit.palette;
	return `wearing ${outfit.prompt.replace(/[.\s]+$/, '')}, the costume mainly ${colourName(body)} with ${colourName(trim)} trim`;
}

/** "deep purple" for #5a189a: a plain colour name from the hue, lightness and saturation. */
export function colourName(hex: string): string {
	const { h, s, l } = toHsl(hex);
	if (l < 0.12) return 'black';
	if (l > 0.9 && s < 0.5) return 'white';
	if (s < 0.12) return l > 0.65 ? 'light grey' : l < 0.35 ? 'dark grey' : 'grey';
	const shade = l > 0.72 ? 'light ' : l < 0.36 ? 'deep ' : '';
	return `${shade}${hueName(h, l)}`;
}

const HUES: [number, string][] = [
	[15, 'red'],
	[40, 'orange'],
	[66, 'yellow'],
	[160, 'green'],
	[190, 'teal'],
	[250, 'blue'],
	[290, 'purple'],
	[335, 'pink'],
	[360, 'red']
];

function hueName(h: number, l: number): string {
	const name = HUES.find(([upTo]) => h < upTo)?.[1] ?? 'red';
	return name === 'orange' && l < 0.4 ? 'brown' : name;
}

function toHsl(hex: string): { h: number; s: number; l: number } {
	const n = Number.parseInt(hex.slice(1), 16);
	const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => v / 255) as [number, number, number];
	const max = Math.max(r, g, b);
	const min = Math.min(r, g, b);
	const l = (max + min) / 2;
	const d = max - min;
	if (d === 0) return { h: 0, s: 0, l };
	const s = d / (1 - Math.abs(2 * l - 1));
	const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
	return { h: h * 60, s, l };
}
