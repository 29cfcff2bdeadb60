import type { Cookies } from '@sveltejs/kit';

export const SESSION_COOKIE = 'console_session';

/**
 * httpOnly + SameSite=Lax always; Secure when the site is served over https (behind Caddy), so the
 * demo on http://localhost still signs in. Path / so the tRPC endpoint under /api sees it too.
 */
export function setSessionCookie(cookies: Cookies, token: string, expiresAt: Date, secure: boolean): void {
	cookies.set(SESSION_COOKIE, token, { path: '/', httpOnly: true, secure, sameSite: 'lax', expires: expiresAt });
}

export function clearSessionCookie(cookies: Cookies, secure: boolean): void {
	cookies.set(SESSION_COOKIE, '', { path: '/', httpOnly: true, secure, sameSite: 'lax', maxAge: 0 });
}
