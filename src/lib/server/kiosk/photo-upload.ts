import { randomBytes } from 'node:crypto';
import type { FileStore } from '../files/file-store.ts';
import type { Logger } from '../log/logger.ts';
import { findSession } from '../guests/sessions.repository.ts';
import { photoReadiness, takePhotoAndEnqueue, type TakePhotoOutcome } from '../guests/take-photo.ts';
import { MAX_UPLOAD_BYTES, type FaceProblem, type PhotoProblem } from '../media/photo-rules.ts';
import { UploadCheckFailed, type UploadChecker } from '../media/upload-checker/upload-check.ts';
import type { KioskDeps } from './kiosk-session.ts';
import { isSessionOfKiosk } from './kiosk-sessions.repository.ts';

export interface UploadDeps extends KioskDeps {
	/** Where the selfie and the face crop go: the process's one store. */
	fileStore: FileStore;
	logger: Logger;
	/** Normalises the photo and checks its face, in the upload checker process (media/upload-checker/). */
	uploadChecker: UploadChecker;
}

export type UploadOutcome =
	| TakePhotoOutcome
	| { kind: 'too_large' }
	| { kind: 'rejected'; problem: PhotoProblem }
	| { kind: 'no_usable_face'; problem: FaceProblem }
	| { kind: 'busy' }
	| { kind: 'check_failed' };

/** Sessions with an upload being processed in this process: a second one at once is refused early. */
const uploading = new Set<string>();

/**
 * The kiosk's selfie upload: owner check, cheap status check, the body read with a byte count
 * (never more than 15 MB kept in memory), content validation, normalisation and the face check
 * (in the upload checker process), then the files and `take_photo_and_enqueue`. Nothing is written to the file store before the photo has
 * passed, and a photo that loses the race for the session is deleted again. A photo without one
 * usable face leaves the session as it was, so the guest can retake at once.
 */
export async function uploadSelfie(
	deps: UploadDeps,
	kioskId: number,
	token: string,
	body: ReadableStream<Uint8Array> | null,
	declaredLength: number | null
): Promise<UploadOutcome> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return { kind: 'unknown' };
	const early = photoReadiness(await findSession(deps.db, token));
	if (early) return early;
	if (declaredLength !== null && declaredLength > MAX_UPLOAD_BYTES) return { kind: 'too_large' };
	if (uploading.has(token)) return { kind: 'busy' };
	uploading.add(token);
	try {
		const bytes = await readLimited(body, MAX_UPLOAD_BYTES);
		if (!bytes) return { kind: 'too_large' };
		const checked = await deps.uploadChecker.check(bytes).catch((error: unknown) => {
			if (error instanceof UploadCheckFailed) return error;
			throw error;
		});
		if (checked instanceof UploadCheckFailed) {
			deps.logger.error(
				{ reason: checked.reason, detail: checked.message },
				'selfie upload failed: the photo could not be checked'
			);
			return { kind: 'check_failed' };
		}
		if (checked.kind === 'rejected') {
			deps.logger.info({ problem: checked.problem, detail: checked.detail }, 'selfie upload refused');
			return { kind: 'rejected', problem: checked.problem };
		}
		if (checked.kind === 'no_usable_face') {
			deps.logger.info({ problem: checked.problem, faces: checked.faces }, 'selfie upload refused: no usable face');
			return { kind: 'no_usable_face', problem: checked.problem };
		}
		return await storeAndEnqueue(deps, token, checked.selfie, checked.faceCrop);
	} finally {
		uploading.delete(token);
	}
}

async function storeAndEnqueue(
	deps: UploadDeps,
	token: string,
	selfie: Buffer,
	faceCrop: Buffer
): Promise<UploadOutcome> {
	const files = deps.fileStore;
	const selfieKey = `sessions/${token}/selfie_${randomBytes(8).toString('hex')}.jpg`;
	await files.put(selfieKey, selfie);
	const outcome = await takePhotoAndEnqueue(deps, token, files.reference(selfieKey)).catch(async (error: unknown) => {
		await files.delete(selfieKey);
		throw error;
	});
	if (outcome.kind !== 'enqueued') {
		await files.delete(selfieKey);
		return outcome;
	}
	// Only the upload that won the session names the face crop: a losing one never replaces it.
	await files.put(`sessions/${token}/face_crop.jpg`, faceCrop);
	return outcome;
}

/** The whole body, or null as soon as it passes `limit` bytes (the rest is never read). */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
	if (!body) return Buffer.alloc(0);
	const reader = body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > limit) {
			await reader.cancel().catch(() => undefined);
			return null;
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks, total);
}
