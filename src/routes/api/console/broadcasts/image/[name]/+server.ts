import type { RequestHandler } from './$types';
import { answerBroadcastImage } from '$lib/server/broadcasts/broadcast-image-route';
import { appContext } from '$lib/server/web/app-context';

/** A stored broadcast picture for the console's preview (see broadcast-image-route.ts). */
export const GET: RequestHandler = ({ locals, params }) =>
	answerBroadcastImage(appContext().fileStore, locals.operator, params.name);
