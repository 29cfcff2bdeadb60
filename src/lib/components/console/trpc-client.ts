import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { getContext, setContext } from 'svelte';
import type { AppRouter } from '$lib/server/trpc/root';
import { MAX_TRPC_BATCH_CALLS } from '$lib/schemas/trpc-batch';

/**
 * The console's tRPC client in the browser: queries and mutations over HTTP (the browser adds the
 * Origin header the server checks), live views over SSE (httpSubscriptionLink). Type-only import
 * of the router: no server code reaches the browser.
 */
export function createConsoleClient() {
	return createTRPCClient<AppRouter>({
		links: [
			splitLink({
				condition: (op) => op.type === 'subscription',
				true: httpSubscriptionLink({ url: '/api/trpc' }),
				// The server refuses bigger batches (trpc/batch-limit.ts): split them here.
				false: httpBatchLink({ url: '/api/trpc', maxItems: MAX_TRPC_BATCH_CALLS })
			})
		]
	});
}

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

const KEY = Symbol('console-client');

export function provideConsoleClient(client: ConsoleClient): void {
	setContext(KEY, client);
}

export function useConsoleClient(): ConsoleClient {
	const client = getContext<ConsoleClient | undefined>(KEY);
	if (!client) throw new Error('the console client is provided by the console layout');
	return client;
}

/**
 * A sentence for a failed call: the server's own message for refusals, and for its own failures
 * (a sentence with a reference to quote: the server never sends internal error text), a plain one otherwise.
 */
/** A form the server refused field by field (zod): the first field's sentence, not the list of issues. */
function firstInputProblem(error: unknown): string | null {
	const zod = (
		error as {
			data?: { zodError?: { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> } | null };
		}
	).data?.zodError;
	if (!zod) return null;
	return zod.formErrors[0] ?? Object.values(zod.fieldErrors).flat()[0] ?? null;
}

export function describeCallError(error: unknown): string {
	const data = (error as { data?: { code?: string; requestId?: string } } | null)?.data;
	const message = error instanceof Error ? error.message : '';
	if (data?.code === 'UNAUTHORIZED') return 'Your session has ended. Please sign in again.';
	if (data?.code === 'BAD_REQUEST') return firstInputProblem(error) ?? message;
	if (data?.code === 'FORBIDDEN' || data?.code === 'NOT_FOUND' || data?.code === 'TOO_MANY_REQUESTS') return message;
	if (data?.requestId) return message;
	return 'The server could not be reached or had a problem. Please try again.';
}
