import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { RequestHandler } from './$types';
import { appRouter } from '$lib/server/trpc/root';
import { createTrpcContext } from '$lib/server/trpc/init';
import { logUnexpectedError } from '$lib/server/trpc/error-reference';
import { MAX_TRPC_BATCH_CALLS, refuseOversizedBatch } from '$lib/server/trpc/batch-limit';
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from '$lib/server/db/busy';
import { appContext } from '$lib/server/web/app-context';
import { isHttpsSite, readSessionCookie } from '$lib/server/auth/session-cookie';

const ENDPOINT = '/api/trpc';

const handle: RequestHandler = ({ request, locals, cookies }) =>
	refuseOversizedBatch(request, ENDPOINT) ??
	fetchRequestHandler({
		endpoint: ENDPOINT,
		req: request,
		router: appRouter,
		// tRPC's own check, behind ours: the same cap, should a request reach it by another shape.
		maxBatchSize: MAX_TRPC_BATCH_CALLS,
		createContext: () =>
			createTrpcContext(appContext(), request, {
				...locals,
				sessionToken: readSessionCookie(cookies, isHttpsSite(appContext().config)) ?? null
			}),
		responseMeta: ({ errors }) =>
			errors.some((error) => error.code === 'SERVICE_UNAVAILABLE')
				? { headers: new Headers({ 'retry-after': String(DATABASE_BUSY_RETRY_AFTER_SECONDS) }) }
				: {},
		onError: ({ error, path }) => logUnexpectedError(appContext().logger, error, path)
	});

export const GET = handle;
export const POST = handle;
