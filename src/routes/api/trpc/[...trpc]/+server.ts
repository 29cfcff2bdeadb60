import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { RequestHandler } from './$types';
import { appRouter } from '$lib/server/trpc/root';
import { createTrpcContext } from '$lib/server/trpc/init';
import { logUnexpectedError } from '$lib/server/trpc/error-reference';
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from '$lib/server/db/busy';
import { appContext } from '$lib/server/web/app-context';
import { isHttpsSite, readSessionCookie } from '$lib/server/auth/session-cookie';

const handle: RequestHandler = ({ request, locals, cookies }) =>
	fetchRequestHandler({
		endpoint: '/api/trpc',
		req: request,
		router: appRouter,
		createContext: () => createTrpcContext(appContext(), request, { ...locals, sessionToken: readSessionCookie(cookies, isHttpsSite(appContext().config)) ?? null }),
		responseMeta: ({ errors }) =>
			errors.some((error) => error.code === 'SERVICE_UNAVAILABLE')
				? { headers: new Headers({ 'retry-after': String(DATABASE_BUSY_RETRY_AFTER_SECONDS) }) }
				: {},
		onError: ({ error, path }) => logUnexpectedError(appContext().logger, error, path)
	});

export const GET = handle;
export const POST = handle;
