import type { RequestHandler } from './$types';
import { answerBroadcastImageUpload } from '$lib/server/broadcasts/broadcast-image-route';
import { appContext } from '$lib/server/web/app-context';

/** A broadcast's picture (see broadcast-image-route.ts). */
export const POST: RequestHandler = ({ locals, request }) =>
	answerBroadcastImageUpload(appContext().fileStore, locals.operator, request);
