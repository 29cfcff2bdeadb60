import type { RequestHandler } from './$types';
import { sessionTokenSchema } from '$lib/schemas/kiosk';
import { kioskError, rateLimited, uploadLimiter, uploadResponse } from '$lib/server/kiosk/kiosk-http';
import { requireKiosk } from '$lib/server/kiosk/kiosk-route';
import { uploadSelfie } from '$lib/server/kiosk/photo-upload';

/**
 * The selfie: the raw image bytes as the request body (any Content-Type; the content is sniffed).
 * 201 with the job id, or a 4xx with a sentence (see kiosk-http.ts).
 */
export const POST: RequestHandler = async ({ cookies, params, request }) => {
	const ctx = await requireKiosk(cookies);
	if (ctx instanceof Response) return ctx;
	if (!sessionTokenSchema.safeParse(params.token).success) return kioskError(404, 'not_found');
	const limited = rateLimited(uploadLimiter, ctx.kiosk);
	if (limited) return limited;
	const length = Number(request.headers.get('content-length') ?? NaN);
	const deps = { ...ctx.deps, dataDir: ctx.app.config.dataDir, logger: ctx.app.logger };
	const outcome = await uploadSelfie(deps, ctx.kiosk.id, params.token, request.body, Number.isFinite(length) ? length : null);
	if (outcome.kind === 'enqueued') ctx.app.logger.info({ kiosk: ctx.kiosk.name, jobId: outcome.jobId }, 'selfie taken, job queued');
	return uploadResponse(outcome);
};
