import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { isDemo } from '$lib/server/config/demo-mode';
import { readPublicHealth } from '$lib/server/health/health';
import { appContext } from '$lib/server/web/app-context';

/**
 * Monitors and deploy/update.sh poll this: status only; 503 when the database does not answer.
 * `demo: true` when no real bot is behind the product (the Telegram emulator stands in).
 */
export const GET: RequestHandler = async () => {
	const { health, serving } = await readPublicHealth(appContext());
	return json(
		{ ...health, demo: isDemo(appContext().config) },
		{ status: serving ? 200 : 503, headers: { 'cache-control': 'no-store' } }
	);
};
