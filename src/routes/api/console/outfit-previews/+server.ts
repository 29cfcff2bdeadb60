import type { RequestHandler } from './$types';
import { answerPreviewUpload } from '$lib/server/events/preview-upload-route';
import { appContext } from '$lib/server/web/app-context';

/** The catalogue editor's preview upload (see preview-upload-route.ts). */
export const POST: RequestHandler = ({ locals, request }) =>
	answerPreviewUpload(appContext().fileStore, locals.operator, request);
