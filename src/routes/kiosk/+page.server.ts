import type { PageServerLoad } from './$types';
import { pickLocale, LOCALES } from '$lib/i18n/locale';

/**
 * The kiosk shell: its starting language. The chosen outfit (titles and picture) comes with the
 * session's view, from the session's event catalogue.
 */
export const load: PageServerLoad = async ({ request }) => {
	const accept = request.headers.get('accept-language') ?? '';
	const locale = pickLocale(accept.split(',')[0]);
	return { locale, locales: LOCALES };
};
