import type { RequestHandler } from './$types';
import { kioskError, kioskJson, rateLimited, START_LIMIT } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { startSessionForKiosk } from '$lib/server/kiosk/session-start';
import { sharedUploadChecker } from '$lib/server/media/upload-checker/web-checker';

/** Start: a new session for this kiosk, with its QR code. */
export const POST: RequestHandler = async ({ cookies }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	const limited = await rateLimited(ctx.app.db, ctx.app.clock, START_LIMIT, ctx.kiosk);
	if (limited) return limited;
	const answer = await startSessionForKiosk(ctx.deps, ctx.app.config, ctx.kiosk.id);
	if (answer.kind === 'paused') return kioskError(503, 'paused', { until: answer.until }, { 'retry-after': '30' });
	if (answer.kind === 'bot_unknown') return kioskError(503, 'bot_not_ready', {}, { 'retry-after': '3' });
	// The guest now spends 20 s or more in the bot: time to start the upload checker off the photo's path.
	sharedUploadChecker(ctx.app.logger).warmUp();
	return kioskJson(answer.session, 201);
};
