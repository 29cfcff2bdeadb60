import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { readHealth } from '$lib/server/health/health.service';
import { appContext } from '$lib/server/web/app-context';

/** Monitors and deploy/update.sh poll this; 503 when the database does not answer. */
export const GET: RequestHandler = async () => {
	const report = await readHealth(appContext());
	return json(report, { status: report.ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
};
