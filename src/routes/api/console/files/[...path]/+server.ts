import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { error } from '@sveltejs/kit';
import type { RequestHandler } from './$types';
import { ARTEFACT_TYPES, resolveArtefactFile } from '$lib/server/console/artefact-files';
import { appContext } from '$lib/server/web/app-context';

/** Debug artefacts and stickers for signed-in operators only; paths are checked in artefact-files.ts. */
export const GET: RequestHandler = async ({ locals, params }) => {
	if (!locals.operator) error(401, 'Please sign in to the console.');
	const file = await resolveArtefactFile(appContext().config.dataDir, params.path);
	if (!file) error(404, 'No such file (it may have been swept by the TTL).');
	const stream = Readable.toWeb(createReadStream(file)) as ReadableStream;
	return new Response(stream, {
		headers: {
			'content-type': ARTEFACT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
			'cache-control': 'private, no-store',
			'content-disposition': 'inline'
		}
	});
};
