import type { Handle, HandleServerError, RequestEvent, ServerInit } from '@sveltejs/kit';
import { ConfigError } from '$lib/server/config/config';
import { DATABASE_BUSY_MESSAGE, isDatabaseBusy } from '$lib/server/db/busy';
import { MigrationError } from '$lib/server/db/migrations/safe-migrate';
import { FileStoreUnusable } from '$lib/server/files/file-store';
import { InstanceLockError } from '$lib/server/system/instance-lock';
import { appContext, startAppContext } from '$lib/server/web/app-context';
import { applySecurityHeaders, isForeignMutation } from '$lib/server/web/security-headers';
import { limitRequestBody } from '$lib/server/web/body-limit';
import { refuseReservedActionName } from '$lib/server/web/form-action-name';
import { asUnavailable, unavailableResponse } from '$lib/server/web/unavailable';
import { announceFirstKiosk } from '$lib/server/kiosk/first-kiosk';
import { announceConsoleSetup, resolveOperatorSession } from '$lib/server/auth/request-session';
import { UploadCheckerMissing } from '$lib/server/media/upload-checker/checker-process';
import { sharedUploadChecker } from '$lib/server/media/upload-checker/web-checker';

/** Runs once before the server listens: configuration, safe migrations, database, the upload checker's entry. */
export const init: ServerInit = async () => {
	try {
		await startAppContext();
		await announceFirstKiosk(appContext());
		await announceConsoleSetup(appContext());
		sharedUploadChecker(appContext().logger);
	} catch (error) {
		if (
			error instanceof ConfigError ||
			error instanceof MigrationError ||
			error instanceof InstanceLockError ||
			error instanceof UploadCheckerMissing ||
			error instanceof FileStoreUnusable
		) {
			console.error(`web process refuses to start: ${error.message}`);
			process.exit(1);
		}
		throw error;
	}
};

export const handle: Handle = async ({ event, resolve }) => {
	const oversized = await limitRequestBody(event);
	if (oversized) return oversized;
	refuseReservedActionName(event);
	const foreign = refuseForeignApiMutation(event);
	if (foreign) return foreign;
	let response: Response;
	try {
		if (!isBearerApi(event)) await resolveOperatorSession(event, appContext());
		response = await resolve(event);
		if (event.locals.databaseBusy) response = asUnavailable(response);
	} catch (error) {
		if (!isDatabaseBusy(error)) throw error;
		response = unavailableResponse();
	}
	applySecurityHeaders(response.headers, event.url.protocol === 'https:');
	return response;
};

/**
 * Every /api mutation must come from our own origin. Decided on the route SvelteKit matched, not on
 * the raw path: routing decodes the path, so `/%61pi/…` runs the /api handlers too. A path no
 * route matched reaches no handler at all.
 */
function refuseForeignApiMutation(event: RequestEvent): Response | null {
	if (!event.route.id?.startsWith('/api/') || isBearerApi(event) || !isForeignMutation(event.request, event.url))
		return null;
	return new Response(JSON.stringify({ error: 'Cross-site request refused.' }), {
		status: 403,
		headers: { 'content-type': 'application/json' }
	});
}

/**
 * /api/v1 authenticates by the Authorization header alone: its requests come from other systems
 * (no Origin), and no cookie is read for them, so a browser's ambient console session cannot act there
 * and the cross-site guard has nothing to protect.
 */
function isBearerApi(event: RequestEvent): boolean {
	return event.route.id === '/api/v1/[...path]';
}

/**
 * Unexpected errors are logged with their stack; a client's mistake (4xx: unknown action, wrong
 * content type, no such method) is not an error of ours and is not logged. People only ever see a sentence.
 */
export const handleError: HandleServerError = ({ error, event, status }) => {
	if (isDatabaseBusy(error)) {
		// Not a bug: another writer held the lock past busy_timeout. handle() turns this into a 503.
		event.locals.databaseBusy = true;
		appContext().logger.warn({ path: event.url.pathname }, 'database busy past busy_timeout; answered 503');
		return { message: DATABASE_BUSY_MESSAGE };
	}
	if (status >= 500) appContext().logger.error({ err: error, path: event.url.pathname }, 'request failed');
	if (status === 404) return { message: 'Page not found.' };
	return {
		message: status < 500 ? 'The request was not understood.' : 'Something went wrong on our side. Please try again.'
	};
};
