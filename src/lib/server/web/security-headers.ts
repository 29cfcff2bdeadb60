/**
 * Headers on every response (HSTS, nosniff, frame DENY, a strict referrer policy, the camera for
 * our own origin only; the same set Caddy adds in deploy/, so a response
 * is safe even without the proxy). The CSP itself comes from svelte.config.js (kit.csp), which
 * adds nonces for SvelteKit's inline bootstrap script.
 */
export function applySecurityHeaders(headers: Headers, secure: boolean): void {
	headers.set('X-Content-Type-Options', 'nosniff');
	headers.set('X-Frame-Options', 'DENY');
	// same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on our own form posts,
	// which SvelteKit's CSRF check must refuse. Other sites still get no referrer.
	headers.set('Referrer-Policy', 'same-origin');
	headers.set('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=()');
	headers.set('Cross-Origin-Opener-Policy', 'same-origin');
	if (secure) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/**
 * SvelteKit's CSRF check covers form posts only. A JSON mutation must come from our own origin
 * too: a missing or foreign Origin header is refused.
 */
export function isForeignMutation(request: Request, url: URL): boolean {
	if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false;
	const origin = request.headers.get('origin');
	return origin === null || origin !== url.origin;
}
