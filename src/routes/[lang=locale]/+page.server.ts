import type { Actions, PageServerLoad } from './$types';
import { pickLocale } from '$lib/i18n/locale';
import { loadLandingPage, runLandingAction } from '$lib/server/leads/landing-route';
import { appContext } from '$lib/server/web/app-context';

/** The landing page in the language of the path: /ru, /uz, /en. */
export const load: PageServerLoad = ({ params, url }) => loadLandingPage(pickLocale(params.lang), url);

export const actions: Actions = {
	default: (event) => runLandingAction(appContext(), event, pickLocale(event.params.lang))
};
