import type { RequestHandler } from './$types';
import { broadcastImageUpload } from '$lib/server/broadcasts/broadcast-image-route';
import { appContext } from '$lib/server/web/app-context';
import { answerPictureUpload } from '$lib/server/web/picture-upload';

/** A broadcast's picture (see broadcast-image-route.ts). */
export const POST: RequestHandler = ({ locals, request }) =>
	answerPictureUpload(locals.operator, request, broadcastImageUpload(appContext().fileStore));
