import type { Locale } from './locale.ts';

/**
 * The one shape of every translation. A surface (the kiosk, the landing page, the bot's guest
 * flow, …) keeps its words in `<surface>/en.ts`, `ru.ts` and `uz.ts`: the English file defines the
 * keys (`as const`), the others are `satisfies Texts<typeof en>` — so a missing or an extra
 * translation fails the type check, and nested groups and lists must match too.
 */
export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

export type TextVars = Record<string, string | number>;

/**
 * Fills `{name}` placeholders of a translated text. A placeholder without a value stays visible,
 * so a forgotten value shows up in a test or a review instead of vanishing from the sentence.
 */
export function fillTemplate(template: string, vars: TextVars = {}): string {
	return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export type Translate<T> = (locale: Locale, key: keyof T & string, vars?: TextVars) => string;
type FlatTexts<T> = { readonly [K in keyof T]: string };

/** A surface's `text(locale, key, vars)`; a language we do not have (bad input) reads English. */
export function translator<T extends Record<string, string>>(dictionaries: Record<Locale, FlatTexts<T>>): Translate<T> {
	return (locale, key, vars) => fillTemplate((dictionaries[locale] ?? dictionaries.en)[key], vars);
}

/** "90 s" / "3 min" with a surface's `seconds` and `minutes` texts: seconds (at least 5) below two minutes. */
export function formatDuration(say: (key: 'seconds' | 'minutes', vars: TextVars) => string, seconds: number): string {
	return seconds < 120
		? say('seconds', { n: Math.max(5, Math.round(seconds)) })
		: say('minutes', { n: Math.round(seconds / 60) });
}
