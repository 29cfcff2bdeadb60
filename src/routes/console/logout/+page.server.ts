import { redirect } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';
import { recordAudit } from '$lib/server/audit/audit-log';
import { invalidateOperatorSession } from '$lib/server/auth/operator-session';
import { clearSessionCookie, isHttpsSite, readSessionCookie } from '$lib/server/auth/session-cookie';
import { appContext } from '$lib/server/web/app-context';

/** Sign-out is a POST (SvelteKit checks its origin); a GET just goes back to the console. */
export const load: PageServerLoad = () => redirect(303, '/console');

export const actions: Actions = {
	default: async ({ cookies, locals }) => {
		const app = appContext();
		const secure = isHttpsSite(app.config);
		const token = readSessionCookie(cookies, secure);
		if (token) await invalidateOperatorSession(app.db, token);
		clearSessionCookie(cookies, secure);
		if (locals.operator)
			await recordAudit(
				app.db,
				app.clock,
				{ name: locals.operator.username, ip: locals.clientIp },
				{ action: 'sign_out' }
			);
		redirect(303, '/console/login');
	}
};
