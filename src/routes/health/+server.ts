import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { readPublicHealth } from '$lib/server/health/health.service';
import { appContext } from '$lib/server/web/app-context';

/** Monitors and deploy/update.sh poll this: status only; 503 when the database does not answer. */
export const GET: RequestHandler = async () => {
	const { health, serving } = await readPublicHealth(appContext());
	return json(health, { status: serving ? 200 : 503, headers: { 'cache-control': 'no-store' } });
};
