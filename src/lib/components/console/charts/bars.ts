/**
 * What the console's bar chart (`BarChart.svelte`) draws and how its keyboard moves, kept apart
 * from the component so the pages that build bars share the types.
 */

/**
 * A bar's meaning picks its colour from the design system's tokens: `count` (blue) for ordinary
 * amounts, `ok` (green) for a good outcome, `warn` for a hitch, `bad` (red) for failures only, and
 * `muted` for what is neither. Never the brand red (`--accent`): a reader takes red for trouble.
 */
export type BarTone = 'count' | 'ok' | 'warn' | 'bad' | 'muted';

/** One bar: an hour, a day, a stage, an outcome. */
export interface ChartBar {
	/** Unique among the bars (an ISO day or hour, a provider's full name): the bar's place. */
	key: string;
	/** The short name under (or beside) the bar. */
	label: string;
	value: number;
	/** What the bar says in full: its tooltip, what a screen reader hears, its line in the text list. */
	sentence: string;
	/** `count` unless said. */
	tone?: BarTone;
}

export const BAR_TONES: readonly BarTone[] = ['count', 'ok', 'warn', 'bad', 'muted'];
/** The tokens of console.css (`@theme inline` maps them to base.css's palette). */
export const TONE_COLOURS: readonly string[] = [
	'var(--color-info)',
	'var(--color-ok)',
	'var(--color-warn)',
	'var(--color-bad)',
	'var(--color-ink-soft)'
];

/** Keys that move the keyboard's bar: to the next, the previous, the first, the last. */
export const STEPS: Record<string, (index: number, last: number) => number> = {
	ArrowRight: (i, last) => Math.min(last, i + 1),
	ArrowDown: (i, last) => Math.min(last, i + 1),
	ArrowLeft: (i) => Math.max(0, i - 1),
	ArrowUp: (i) => Math.max(0, i - 1),
	Home: () => 0,
	End: (_, last) => last
};

/** Ticks of a count axis: whole numbers only (no "2.5 packs"). */
export const wholeTicks = (scale: { ticks?: (count: number) => number[] }) =>
	(scale.ticks?.(4) ?? []).filter((tick) => Number.isInteger(tick));
