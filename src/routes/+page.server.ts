import type { Actions, PageServerLoad } from './$types';
import { localeFromAcceptLanguage } from '$lib/server/leads/landing-locale';
import { loadLandingPage, runLandingAction } from '$lib/server/leads/landing-route';
import { appContext } from '$lib/server/web/app-context';

/** The landing page at "/", in the browser's language (Accept-Language). /start is the developer page. */
export const load: PageServerLoad = ({ request, url }) =>
	loadLandingPage(localeFromAcceptLanguage(request.headers.get('accept-language')), url);

export const actions: Actions = {
	default: (event) =>
		runLandingAction(appContext(), event, localeFromAcceptLanguage(event.request.headers.get('accept-language')))
};
