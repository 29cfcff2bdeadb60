import { fail, redirect } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';
import { createOperatorSession } from '$lib/server/auth/operator-session';
import { OperatorError } from '$lib/server/auth/operators';
import { createOwner, setupLinkState } from '$lib/server/auth/owner-setup';
import { isHttpsSite, setSessionCookie } from '$lib/server/auth/session-cookie';
import { appContext } from '$lib/server/web/app-context';

/** First run only: works while no operator exists and the token is the one the web process printed, for a day. */
export const load: PageServerLoad = async ({ url }) => {
	const app = appContext();
	const token = url.searchParams.get('token') ?? '';
	const state = await setupLinkState(app.db, app.clock, token);
	return { state, token: state === 'open' ? token : '' };
};

export const actions: Actions = {
	default: async ({ request, cookies, locals }) => {
		const app = appContext();
		const form = await request.formData();
		const token = String(form.get('token') ?? '');
		const username = String(form.get('username') ?? '').slice(0, 64);
		const displayName = String(form.get('displayName') ?? '').slice(0, 80);
		const password = String(form.get('password') ?? '').slice(0, 200);
		if (password !== String(form.get('confirm') ?? ''))
			return fail(400, { username, displayName, message: 'The two passwords differ. Type the same password twice.' });
		try {
			const owner = await createOwner(app.db, app.clock, {
				token,
				username,
				displayName,
				password,
				ip: locals.clientIp
			});
			const session = await createOperatorSession(app.db, app.clock, owner.id);
			setSessionCookie(cookies, session.token, session.expiresAt, isHttpsSite(app.config));
		} catch (error) {
			if (error instanceof OperatorError) return fail(400, { username, displayName, message: error.message });
			throw error;
		}
		redirect(303, '/console');
	}
};
