import type { RequestEvent } from '@sveltejs/kit';

/**
 * Request body sizes. adapter-node's BODY_SIZE_LIMIT applies to every route alike, and it has to let
 * a 15 MB selfie through; a form or JSON route that parsed whatever came would then hold up to that
 * much per request in memory. So the adapter's limit is only the outer wall (photo cap + 1 MB, so the
 * upload endpoint answers its own 413 with its own sentence), and every other route gets 64 KB,
 * enforced here before any handler reads the body.
 *
 * scripts/run-all.ts and the tests that start the built server pass ADAPTER_BODY_SIZE_LIMIT;
 * deploy/systemd/sticker-api.service states the same value.
 */
export const ADAPTER_BODY_SIZE_LIMIT = '16M';
export const ROUTE_BODY_LIMIT_BYTES = 64 * 1024;
/**
 * Routes that read a larger body themselves, with a cap of their own: the selfie (kiosk/photo-upload.ts,
 * 15 MB), an outfit's preview picture (events/preview-upload-route.ts, 2 MB), a broadcast's picture
 * (broadcasts/broadcast-image-route.ts, 10 MB).
 */
export const ROUTES_WITH_OWN_LIMIT: ReadonlySet<string> = new Set([
	'/api/kiosk/sessions/[token]/photo',
	'/api/console/outfit-previews',
	'/api/console/broadcasts/image'
]);

/**
 * A 413 (or 400) to answer instead of the route, or null to go on. A declared length above the cap
 * is refused without reading; a body without one (chunked) is read up to the cap and handed on from
 * memory, so the route never sees more. What a refused client still sends is read and dropped, so
 * the connection ends cleanly and the answer reaches the client.
 */
export async function limitRequestBody(event: RequestEvent): Promise<Response | null> {
	const { request } = event;
	if (!request.body || ROUTES_WITH_OWN_LIMIT.has(event.route.id ?? '')) return null;
	const declared = request.headers.get('content-length');
	if (declared !== null && /^\d+$/.test(declared.trim())) {
		if (Number(declared) <= ROUTE_BODY_LIMIT_BYTES) return null;
		void request.body.pipeTo(new WritableStream()).catch(() => undefined);
		return refusal(event, 413, 'The request is too large: this address accepts at most 64 KB.');
	}
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	try {
		for (let next = await reader.read(); !next.done; next = await reader.read()) {
			total += next.value.byteLength;
			if (total > ROUTE_BODY_LIMIT_BYTES) {
				void dropRest(reader);
				return refusal(event, 413, 'The request is too large: this address accepts at most 64 KB.');
			}
			chunks.push(next.value);
		}
	} catch {
		return refusal(event, 400, 'The request body could not be read. Please try again.');
	}
	event.request = new Request(request.url, {
		method: request.method,
		headers: request.headers,
		body: Buffer.concat(chunks, total),
		signal: request.signal
	});
	return null;
}

async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
	try {
		while (!(await reader.read()).done);
	} catch {
		// the client went away: nothing left to drop
	}
}

/**
 * A sentence: JSON for the API in its error shape (/api/v1 nests code and message, the kiosk and
 * tRPC routes put the code beside the message), plain text for pages (a browser without
 * JavaScript shows it as is).
 */
function refusal(event: RequestEvent, status: number, message: string): Response {
	const route = event.route.id ?? '';
	const json = route.startsWith('/api/');
	const code = status === 413 ? 'too_large' : 'bad_request';
	const body = route.startsWith('/api/v1/') ? { error: { code, message } } : { error: code, message };
	return new Response(json ? JSON.stringify(body) : message, {
		status,
		headers: { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8', 'cache-control': 'no-store' }
	});
}
