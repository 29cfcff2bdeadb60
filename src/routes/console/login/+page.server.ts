import { fail, redirect } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';
import { recordAudit } from '$lib/server/audit/audit-log';
import { countOperators } from '$lib/server/auth/operators';
import { isHttpsSite, setSessionCookie } from '$lib/server/auth/session-cookie';
import { describeSignInFailure, signIn } from '$lib/server/auth/sign-in';
import { ipSaltFor } from '$lib/server/privacy/ip-hash';
import { appContext } from '$lib/server/web/app-context';

/** Only same-site console paths: never an open redirect. */
function safeNext(raw: string | null): string {
	return raw && /^\/console(\/[\w\-/]*)?$/.test(raw) ? raw : '/console';
}

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.operator) redirect(303, safeNext(url.searchParams.get('next')));
	return { firstRun: (await countOperators(appContext().db)) === 0 };
};

export const actions: Actions = {
	default: async ({ request, cookies, locals, url, setHeaders }) => {
		const app = appContext();
		const form = await request.formData();
		const username = String(form.get('username') ?? '').slice(0, 64);
		const password = String(form.get('password') ?? '').slice(0, 200);
		if (!username || !password) return fail(400, { username, message: 'Enter your username and password.' });
		const result = await signIn(
			{ db: app.db, clock: app.clock, ipSalt: ipSaltFor(app.config) },
			{ username, password, ip: locals.clientIp ?? 'unknown' }
		);
		if (!result.ok) {
			if (result.reason === 'invalid') return fail(400, { username, message: describeSignInFailure(result) });
			setHeaders({ 'retry-after': String(result.retryAfterSeconds) });
			return fail(429, { username, message: describeSignInFailure(result) });
		}
		setSessionCookie(cookies, result.session.token, result.session.expiresAt, isHttpsSite(app.config));
		await recordAudit(
			app.db,
			app.clock,
			{ name: result.operator.username, ip: locals.clientIp },
			{ action: 'sign_in' }
		);
		redirect(303, safeNext(url.searchParams.get('next')));
	}
};
