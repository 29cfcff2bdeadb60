/** The product's languages: Russian, Uzbek, English (fallback). Shared by browser and server. */
export const LOCALES = ['ru', 'uz', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Maps a Telegram `language_code` or an Accept-Language tag (e.g. "ru-RU", "uz-Latn") to ours. */
export function pickLocale(tag: string | null | undefined): Locale {
	const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
	return (LOCALES as readonly string[]).includes(primary ?? '') ? (primary as Locale) : DEFAULT_LOCALE;
}
