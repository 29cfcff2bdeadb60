import { DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER_SECONDS } from '../db/busy.ts';

/**
 * A full disk or a lock held past busy_timeout fails the request cleanly: 503 with a human
 * sentence, no partial write, and the next request works. An error page SvelteKit already rendered (with our sentence from
 * handleError) keeps its body and only changes status; a failure before rendering gets a short
 * JSON answer. Either way the client learns when to try again.
 */
export function asUnavailable(response: Response): Response {
	const headers = new Headers(response.headers);
	headers.set('retry-after', String(DATABASE_BUSY_RETRY_AFTER_SECONDS));
	headers.set('cache-control', 'no-store');
	return new Response(response.body, { status: 503, headers });
}

export function unavailableResponse(): Response {
	return asUnavailable(
		new Response(JSON.stringify({ error: 'busy', message: DATABASE_BUSY_MESSAGE }), {
			headers: { 'content-type': 'application/json' }
		})
	);
}
