import { LOCALES, DEFAULT_LOCALE, type Locale } from '../../i18n/locale.ts';

/**
 * The landing's language at "/" from Accept-Language ("uz-UZ,ru;q=0.8,en;q=0.5"): the supported
 * language the browser likes most; English when none is supported.
 */
export function localeFromAcceptLanguage(header: string | null): Locale {
	const ranked = (header ?? '')
		.split(',')
		.map((part, index) => {
			const [tag = '', ...params] = part.trim().split(';');
			const q = Number(
				params
					.find((p) => p.trim().startsWith('q='))
					?.trim()
					.slice(2) ?? '1'
			);
			return { primary: tag.trim().toLowerCase().split(/[-_]/)[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
		})
		.filter((entry) => entry.q > 0)
		.sort((a, b) => b.q - a.q || a.index - b.index);
	const match = ranked.find((entry) => (LOCALES as readonly string[]).includes(entry.primary));
	return (match?.primary as Locale | undefined) ?? DEFAULT_LOCALE;
}
