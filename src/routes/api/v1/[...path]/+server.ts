import type { RequestHandler } from './$types';
import { handleApiRequest } from '$lib/server/api-v1/handle-request';
import { appContext } from '$lib/server/web/app-context';

/** /api/v1 for outside systems (docs/api.md): bearer tokens only; hooks.server.ts reads no cookie here. */
const answer: RequestHandler = ({ request, params, getClientAddress }) =>
	handleApiRequest(appContext(), request, `/${params.path}`, clientAddress(getClientAddress));

function clientAddress(read: () => string): string | null {
	try {
		return read();
	} catch {
		return null;
	}
}

export const GET = answer;
export const POST = answer;
export const fallback = answer;
