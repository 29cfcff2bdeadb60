import type { OperatorIdentity } from '../auth/roles.ts';
import { canAct } from '../auth/roles.ts';
import { artefactUrl } from '../console/artefact-files.ts';
import { DomainError } from '../errors/domain-error.ts';
import type { FileStore } from '../files/file-store.ts';
import { readLimited } from '../kiosk/photo-upload.ts';
import { MAX_PREVIEW_BYTES } from '../media/preview-normalise.ts';
import { consoleSentence } from '../trpc/domain-error-text.ts';
import { storeOutfitPreview } from './outfit-previews.ts';

/**
 * POST /api/console/outfit-previews: the catalogue editor's preview upload, the picture's bytes as
 * the body. Operators and owners only (viewers read). Answers the stored file's name, which the
 * editor puts in the outfit and saves with the draft, or a sentence saying what is wrong with the
 * file. The body is never kept past 2 MB (web/body-limit.ts leaves this route's size to it).
 */
export async function answerPreviewUpload(files: FileStore, operator: OperatorIdentity | null, request: Request): Promise<Response> {
	if (!operator) return json(401, { error: 'Please sign in to the console.' });
	if (!canAct(operator.role)) return json(403, { error: 'Your role is viewer: you can look at everything but not change it.' });
	const declared = Number(request.headers.get('content-length') ?? Number.NaN);
	try {
		if (declared > MAX_PREVIEW_BYTES) {
			// Read and dropped, so the connection ends cleanly and the sentence reaches the editor.
			void request.body?.pipeTo(new WritableStream()).catch(() => undefined);
		}
		const upload = declared > MAX_PREVIEW_BYTES ? null : await readLimited(request.body, MAX_PREVIEW_BYTES);
		const preview = await storeOutfitPreview(files, upload);
		return json(200, { preview, url: artefactUrl(`outfit-previews/${preview}`) });
	} catch (error) {
		if (error instanceof DomainError) return json(400, { error: consoleSentence(error.refusal) });
		throw error;
	}
}

function json(status: number, body: unknown): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
