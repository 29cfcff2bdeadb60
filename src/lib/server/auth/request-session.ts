import type { RequestEvent } from '@sveltejs/kit';
import type { AppContext } from '../web/app-context.ts';
import { validateOperatorSession } from './operator-session.ts';
import { clearSessionCookie, isHttpsSite, readSessionCookie, setSessionCookie } from './session-cookie.ts';
import { issueSetupToken, setupLink } from './owner-setup.ts';

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
 * At web start: while no operator exists, print a one-time link that creates the owner. A restart
 * before setup prints a new link (the old one stops working); only the token's hash is stored.
 */
export async function announceConsoleSetup(app: AppContext): Promise<void> {
	const token = await issueSetupToken(app.db, app.clock);
	if (!token) return;
	const link = setupLink(app.config.publicBaseUrl, token);
	app.logger.warn({ setupLink: link }, `console setup: no operator exists yet — open ${link} to create the owner account (link works once)`);
	console.log(`\n  Console first run: create the owner account at\n  ${link}\n`);
}
