import type { PageServerLoad } from './$types';
import { pickLocale, LOCALES } from '$lib/i18n/locale';
import { OUTFITS } from '$lib/server/outfits/catalogue';

/** The kiosk shell: its starting language and the outfit titles/previews (the page cannot import server code). */
export const load: PageServerLoad = async ({ request }) => {
	const accept = request.headers.get('accept-language') ?? '';
	const locale = pickLocale(accept.split(',')[0]);
	const outfits = Object.fromEntries(OUTFITS.map((o) => [o.id, { title: o.title, emoji: o.emoji, preview: `/outfits/${o.id}.png` }]));
	return { locale, locales: LOCALES, outfits };
};
