import type { Locale } from './locale.ts';
import type { Texts } from './texts.ts';
import { en } from './landing/en.ts';
import { ru } from './landing/ru.ts';
import { uz } from './landing/uz.ts';

/**
 * The landing page's words. The page gets its own language's texts whole, as page data, so only
 * the server imports this and the browser bundle carries no translations — part of the 50 KB budget.
 */
export type LandingTexts = Texts<typeof en>;

const LANDING_TEXTS: Record<Locale, LandingTexts> = { ru, uz, en };

export function landingTexts(locale: Locale): LandingTexts {
	return LANDING_TEXTS[locale];
}
