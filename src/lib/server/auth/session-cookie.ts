import type { Cookies } from '@sveltejs/kit';

/**
 * The console's session cookie: httpOnly + SameSite=Lax always, Path / so the tRPC endpoint under
 * /api sees it too. When the site is https (PUBLIC_BASE_URL) it is also Secure and named with the
 * `__Host-` prefix, which browsers accept only from https, with Path=/ and without Domain — so a
 * sibling subdomain or a plain-http page cannot plant or overwrite it. The demo on
 * http://localhost keeps the plain name and still signs in.
 */
const SESSION_COOKIE = 'console_session';

export function isHttpsSite(config: { publicBaseUrl: string }): boolean {
	return config.publicBaseUrl.startsWith('https:');
}

export function sessionCookieName(secure: boolean): string {
	return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function readSessionCookie(cookies: Cookies, secure: boolean): string | undefined {
	return cookies.get(sessionCookieName(secure));
}

export function setSessionCookie(cookies: Cookies, token: string, expiresAt: Date, secure: boolean): void {
	cookies.set(sessionCookieName(secure), token, {
		path: '/',
		httpOnly: true,
		secure,
		sameSite: 'lax',
		expires: expiresAt
	});
}

export function clearSessionCookie(cookies: Cookies, secure: boolean): void {
	cookies.set(sessionCookieName(secure), '', { path: '/', httpOnly: true, secure, sameSite: 'lax', maxAge: 0 });
}
