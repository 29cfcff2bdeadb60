import { error } from '@sveltejs/kit';
import type { PageServerLoad } from './$types';
import { readHealthDetails } from '$lib/server/health/health';
import { appContext } from '$lib/server/web/app-context';

/**
 * The developer start page: links to every part and the service's details. Off in production
 * (NODE_ENV=production answers 404): there it would tell anyone the pause reason, version and
 * provider, and operators have the console's Health page instead.
 */
export const load: PageServerLoad = async () => {
	const app = appContext();
	if (app.config.NODE_ENV === 'production') error(404, 'Page not found.');
	const health = await readHealthDetails(app);
	const emulator = app.config.telegram.mode === 'emulator' ? `http://localhost:${app.config.EMULATOR_PORT}/` : null;
	return { health, emulator, provider: app.config.IMAGE_PROVIDER };
};
