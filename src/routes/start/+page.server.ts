import type { PageServerLoad } from './$types';
import { readHealth } from '$lib/server/health/health.service';
import { appContext } from '$lib/server/web/app-context';

export const load: PageServerLoad = async () => {
	const app = appContext();
	const health = await readHealth(app);
	const emulator = app.config.telegram.mode === 'emulator' ? `http://localhost:${app.config.EMULATOR_PORT}/` : null;
	return { health, emulator, provider: app.config.IMAGE_PROVIDER };
};
