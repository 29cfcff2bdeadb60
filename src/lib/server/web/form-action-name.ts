import { error, type RequestEvent } from '@sveltejs/kit';

/**
 * A form post names its action in the query (`?/save`). SvelteKit answers an unknown name with a 404,
 * but the reserved name `?/default` with a bare Error — a 500 and an error log line for what is a
 * client's mistake. Such a post gets the same 404 as any unknown action, before the page runs.
 */
export function refuseReservedActionName(event: RequestEvent): void {
	if (event.request.method !== 'POST' || event.route.id?.startsWith('/api/')) return;
	for (const [name] of event.url.searchParams) {
		if (!name.startsWith('/')) continue;
		if (name === '/default') error(404, 'No such form action.');
		return;
	}
}
