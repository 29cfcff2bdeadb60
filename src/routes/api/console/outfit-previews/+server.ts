import type { RequestHandler } from './$types';
import { outfitPreviewUpload } from '$lib/server/events/preview-upload-route';
import { appContext } from '$lib/server/web/app-context';
import { answerPictureUpload } from '$lib/server/web/picture-upload';

/** The catalogue editor's preview upload (see preview-upload-route.ts). */
export const POST: RequestHandler = ({ locals, request }) =>
	answerPictureUpload(locals.operator, request, outfitPreviewUpload(appContext().fileStore));
