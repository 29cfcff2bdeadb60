import { sessionTokenSchema } from '../../schemas/kiosk.ts';
import { pickLocale } from '../../i18n/locale.ts';
import type { RateLimit } from '../rate-limits/token-bucket.ts';
import type { UploadChecker } from '../media/upload-checker/upload-check.ts';
import { sharedUploadChecker } from '../media/upload-checker/web-checker.ts';
import type { AppContext } from '../web/app-context.ts';
import { kioskDepsFrom, kioskFromCookie } from './kiosk-auth.ts';
import { kioskError, rateLimited, UPLOAD_LIMIT, uploadResponse } from './kiosk-http.ts';
import { uploadSelfie } from './photo-upload.ts';

export interface UploadRouteDeps {
	app: AppContext;
	/** The upload limit; tests that upload many photos from one kiosk pass a larger one. */
	uploadLimit?: RateLimit;
	uploadChecker?: UploadChecker;
}

/**
 * POST /api/kiosk/sessions/<token>/photo?locale=<ru|uz|en>: the selfie as the raw request body
 * (any Content-Type; the content is sniffed). 201 with the job id, or a 4xx whose `sentence` is in
 * the kiosk's language (`locale`, from the page) — see kiosk-http.ts for the codes.
 */
export async function answerSelfieUpload(
	deps: UploadRouteDeps,
	kioskKey: string | undefined,
	token: string,
	request: Request
): Promise<Response> {
	const { app } = deps;
	const kiosk = await kioskFromCookie(app.db, kioskKey);
	if (!kiosk) return kioskError(401, 'no_kiosk_key');
	if (!sessionTokenSchema.safeParse(token).success) return kioskError(404, 'not_found');
	const limited = await rateLimited(app.db, app.clock, deps.uploadLimit ?? UPLOAD_LIMIT, kiosk);
	if (limited) return limited;
	const locale = pickLocale(new URL(request.url).searchParams.get('locale'));
	const length = Number(request.headers.get('content-length') ?? NaN);
	const uploadDeps = {
		...kioskDepsFrom(app),
		fileStore: app.fileStore,
		logger: app.logger,
		uploadChecker: deps.uploadChecker ?? sharedUploadChecker(app.logger)
	};
	const outcome = await uploadSelfie(
		uploadDeps,
		kiosk.id,
		token,
		request.body,
		Number.isFinite(length) ? length : null
	);
	if (outcome.kind === 'enqueued')
		app.logger.info({ kiosk: kiosk.name, jobId: outcome.jobId }, 'selfie taken, job queued');
	return uploadResponse(outcome, locale);
}
