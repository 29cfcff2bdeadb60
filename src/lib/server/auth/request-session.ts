import type { RequestEvent } from '@sveltejs/kit';
import type { AppContext } from '../web/app-context.ts';
import { validateOperatorSession } from './operator-session.ts';
import { clearSessionCookie, isHttpsSite, readSessionCookie, setSessionCookie } from './session-cookie.ts';
import { issueSetupToken, setupLink } from './owner-setup.ts';
import { keepFirstRunSecret } from '../system/first-run-secrets.ts';

/**
 * Puts the signed-in operator (or null) and the client address on event.locals. A cookie that no
 * longer matches a live session (expired, signed out, operator removed) is cleared; a session
 * that was renewed gets its cookie written again with the new expiry.
 */
export async function resolveOperatorSession(event: RequestEvent, app: AppContext): Promise<void> {
	event.locals.operator = null;
	event.locals.clientIp = readClientIp(event);
	const secure = isHttpsSite(app.config);
	const token = readSessionCookie(event.cookies, secure);
	if (!token) return;
	const session = await validateOperatorSession(app.db, app.clock, token);
	if (!session) {
		clearSessionCookie(event.cookies, secure);
		return;
	}
	event.locals.operator = session.operator;
	if (session.renewed) setSessionCookie(event.cookies, token, session.expiresAt, secure);
}

function readClientIp(event: RequestEvent): string | null {
	try {
		return event.getClientAddress();
	} catch {
		return null;
	}
}

/**
 * At web start: while no operator exists, hand over a one-time link that creates the owner — in
 * the first-run secrets file and on the terminal, never in the log. It works for a day; every start
 * before setup gives a new link (the old one stops working); only the token's hash is stored.
 */
export async function announceConsoleSetup(app: AppContext): Promise<void> {
	const token = await issueSetupToken(app.db, app.clock);
	if (!token) return;
	const link = setupLink(app.config.publicBaseUrl, token);
	const file = keepFirstRunSecret(app.config.dataDir, app.clock, 'Console first run: create the owner account at', [
		link,
		'(the link works once, for 24 hours; a restart before setup gives a new one)'
	]);
	app.logger.warn(
		{ file },
		'console setup: no operator exists yet — the one-time setup link is in the first-run secrets file'
	);
}
