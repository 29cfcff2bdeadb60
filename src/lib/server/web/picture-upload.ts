import { canAct, type OperatorIdentity } from '../auth/roles.ts';
import { DomainError, type PictureProblem } from '../errors/domain-error.ts';
import { readLimited } from '../kiosk/photo-upload.ts';
import { PhotoRejected } from '../media/photo-normalise.ts';
import type { PhotoProblem } from '../media/photo-rules.ts';
import { consoleSentence } from '../trpc/domain-error-text.ts';

/**
 * A picture the console uploads as the raw request body (an outfit's preview, a broadcast's
 * picture): one way to answer for every such route, so they refuse alike. Signed-in operators and
 * owners only (401, 403); the body is never read past `maxBytes` (web/body-limit.ts leaves these
 * routes' size to them) and a bigger one is 413; the bytes are judged by their contents, never by
 * the declared type (the route's `store` runs media's checks), and a refusal is 400. Every refusal is
 * `{error}` with the console's sentence (trpc/domain-error-text.ts, `PictureRejected`).
 */
export interface PictureUploadRoute {
	/** The route's own cap on the body. */
	maxBytes: number;
	/** The pixel limit its `store` checks, named in the sentence when a picture is above it. */
	maxPixels: number;
	/** Checks and stores the picture; answers the status and JSON body of a success. */
	store: (bytes: Buffer) => Promise<{ status: 200 | 201; body: object }>;
}

export async function answerPictureUpload(
	operator: OperatorIdentity | null | undefined,
	request: Request,
	route: PictureUploadRoute
): Promise<Response> {
	if (!operator) return refuseSignedOut();
	if (!canAct(operator.role))
		return json(403, { error: 'Your role is viewer: you can look at everything but not change it.' });
	const refuse = (status: 400 | 413, problem: PictureProblem) =>
		json(status, {
			error: consoleSentence({ code: 'PictureRejected', problem, maxBytes: route.maxBytes, maxPixels: route.maxPixels })
		});
	const declared = Number(request.headers.get('content-length') ?? Number.NaN);
	if (Number.isFinite(declared) && declared > route.maxBytes) {
		// Read and dropped, so the connection ends cleanly and the sentence reaches the console.
		void request.body?.pipeTo(new WritableStream()).catch(() => undefined);
		return refuse(413, 'too_big');
	}
	const bytes = await readLimited(request.body, route.maxBytes);
	if (!bytes) return refuse(413, 'too_big');
	try {
		const stored = await route.store(bytes);
		return json(stored.status, stored.body);
	} catch (error) {
		if (error instanceof PhotoRejected) return refuse(400, pictureProblem(error.problem));
		if (error instanceof DomainError && error.refusal.code === 'PictureRejected')
			return refuse(error.refusal.problem === 'too_big' ? 413 : 400, error.refusal.problem);
		throw error;
	}
}

/** A format that does not match its contents is, to the operator, not a picture we take. */
function pictureProblem(problem: PhotoProblem): PictureProblem {
	return problem === 'unsupported' ? 'not_an_image' : problem;
}

/** 401 to a request without a console session: the picture routes' (and the stored pictures') one answer. */
export function refuseSignedOut(): Response {
	return json(401, { error: 'Please sign in to the console.' });
}

/** A JSON answer of the console's picture routes; none is cached (each depends on who asks). */
export function json(status: number, body: unknown): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }
	});
}
