import type { RequestHandler } from './$types';
import { KIOSK_COOKIE } from '$lib/server/kiosk/kiosk-auth';
import { answerSelfieUpload } from '$lib/server/kiosk/photo-upload-route';
import { appContext } from '$lib/server/web/app-context';

/** The selfie upload (see photo-upload-route.ts). */
export const POST: RequestHandler = ({ cookies, params, request }) =>
	answerSelfieUpload({ app: appContext() }, cookies.get(KIOSK_COOKIE), params.token, request);
