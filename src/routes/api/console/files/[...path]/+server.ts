import path from 'node:path';
import { error } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { ARTEFACT_TYPES, readArtefact } from '$lib/server/console/artefact-files';
import { appContext } from '$lib/server/web/app-context';

/** Debug artefacts and stickers for signed-in operators only, from DATA_DIR or the bucket; paths are checked in artefact-files.ts. */
export const GET: RequestHandler = async ({ locals, params }) => {
	if (!locals.operator) error(401, 'Please sign in to the console.');
	const app = appContext();
	const bytes = await readArtefact(app.fileStore, params.path);
	if (!bytes) error(404, 'No such file (it may have been swept by the TTL).');
	return new Response(new Uint8Array(bytes), {
		headers: {
			'content-type': ARTEFACT_TYPES[path.extname(params.path).toLowerCase()] ?? 'application/octet-stream',
			'cache-control': 'private, no-store',
			'content-disposition': 'inline'
		}
	});
};
