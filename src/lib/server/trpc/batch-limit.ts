import { MAX_TRPC_BATCH_CALLS } from '../../schemas/trpc-batch.ts';

export { MAX_TRPC_BATCH_CALLS };

/**
 * A 400 for a tRPC request that batches more than `max` calls (`/api/trpc/a,b,c?batch=1`), or null
 * to go on. Read from the URL alone, before the body, the context or any procedure: a refused
 * batch runs nothing. The answer is tRPC's error shape, with a sentence that says the limit.
 */
export function refuseOversizedBatch(request: Request, endpoint: string, max = MAX_TRPC_BATCH_CALLS): Response | null {
	const url = new URL(request.url);
	if (url.searchParams.get('batch') !== '1') return null;
	const paths = url.pathname.slice(endpoint.length).replace(/^\//, '');
	// Commas as sent or percent-encoded (tRPC decodes the path before splitting it).
	const calls = paths === '' ? 0 : paths.split(/,|%2c/i).length;
	if (calls <= max) return null;
	const message = `This request batches ${calls} calls; at most ${max} are allowed in one request. Send them in smaller batches.`;
	const body = { error: { message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } } };
	return new Response(JSON.stringify(body), {
		status: 400,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }
	});
}
