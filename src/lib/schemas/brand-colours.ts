/**
 * An event's kiosk colours and the contrast rules that keep the kiosk readable (WCAG 2.x). Shared
 * by the console's event form (zod, below in event.ts) and the server that hands the kiosk its
 * theme; nothing here imports from src/lib/server.
 *
 * The operator picks two colours: `primary` (the screen's background) and `accent` (the Start
 * button). Nobody picks a text colour: text on each is black or white, whichever contrasts more —
 * one of the two always reaches 4.58:1, above AA's 4.5:1 for normal text, whatever the colour.
 * What cannot be fixed by choosing the ink is a button that melts into its background, so the
 * form refuses an accent below 3:1 against the primary (WCAG 1.4.11, non-text contrast).
 */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/;
/** WCAG AA for normal text. */
export const TEXT_CONTRAST_MIN = 4.5;
/** WCAG 1.4.11: a control against what surrounds it. */
export const CONTROL_CONTRAST_MIN = 3;
/** The kiosk's own colours, used for whatever the event leaves empty. */
export const KIOSK_DEFAULT_PRIMARY = '#1d1b4b';
export const KIOSK_DEFAULT_ACCENT = '#ffd23f';
const BLACK = '#000000';
const WHITE = '#ffffff';

/** `#ABC`, `abc123`, ` #AbC123 ` → `#aabbcc`/`#abc123`; anything else → null. */
export function normaliseHex(input: string): string | null {
	let hex = input.trim().toLowerCase();
	if (!hex.startsWith('#')) hex = `#${hex}`;
	if (/^#[0-9a-f]{3}$/.test(hex)) hex = `#${[...hex.slice(1)].map((c) => c + c).join('')}`;
	return HEX_COLOUR.test(hex) ? hex : null;
}

/** WCAG relative luminance of a `#rrggbb` colour (0 = black, 1 = white). */
export function relativeLuminance(hex: string): number {
	const channel = (i: number) => {
		const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
		return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
	const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
	return (hi + 0.05) / (lo + 0.05);
}

/** The text colour for a background: black or white, whichever contrasts more (always ≥ 4.5:1). */
export function readableInk(background: string): string {
	return contrastRatio(background, BLACK) >= contrastRatio(background, WHITE) ? BLACK : WHITE;
}

/** What the kiosk page paints with: each colour with the ink that reads on it. */
export interface KioskTheme {
	primary: string;
	primaryInk: string;
	accent: string;
	accentInk: string;
}

export function kioskTheme(primary: string | null, accent: string | null): KioskTheme {
	const p = primary ?? KIOSK_DEFAULT_PRIMARY;
	const a = accent ?? KIOSK_DEFAULT_ACCENT;
	return { primary: p, primaryInk: readableInk(p), accent: a, accentInk: readableInk(a) };
}

/** The sentence for an accent that would vanish on the primary, or null when the pair is fine. */
export function accentProblem(primary: string | null, accent: string | null): string | null {
	if (primary === null && accent === null) return null;
	const theme = kioskTheme(primary, accent);
	const ratio = contrastRatio(theme.primary, theme.accent);
	if (ratio >= CONTROL_CONTRAST_MIN) return null;
	return (
		`The accent colour ${theme.accent} is too close to the primary colour ${theme.primary} ` +
		`(contrast ${ratio.toFixed(1)}:1, at least ${CONTROL_CONTRAST_MIN}:1 is needed): ` +
		'the Start button would melt into the screen. Pick a lighter or darker accent.'
	);
}
