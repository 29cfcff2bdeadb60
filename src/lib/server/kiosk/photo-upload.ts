import { randomBytes } from 'node:crypto';
import type { FileStore } from '../files/file-store.ts';
import { storeOf } from '../files/open-file-store.ts';
import type { Logger } from '../log/logger.ts';
import { findSession } from '../guests/sessions.repository.ts';
import { photoReadiness, takePhotoAndEnqueue, type TakePhotoOutcome } from '../guests/take-photo.ts';
import { checkSelfieFace, type FaceFinder, type FaceProblem } from '../media/face-check.ts';
import { MAX_UPLOAD_BYTES, normalisePhoto, PhotoRejected } from '../media/photo-normalise.ts';
import type { KioskDeps } from './kiosk-session.ts';
import { isSessionOfKiosk } from './kiosk-sessions.repository.ts';

export interface UploadDeps extends KioskDeps {
	dataDir: string;
	/** Where the selfie and the face crop go (DATA_DIR when not given). */
	fileStore?: FileStore;
	logger: Logger;
	/** The process's face detector, asked for only when a photo has passed normalisation (it loads on first use). */
	faceDetector: () => Promise<FaceFinder>;
}

export type UploadOutcome =
	| TakePhotoOutcome
	| { kind: 'too_large' }
	| { kind: 'rejected'; problem: PhotoRejected['problem'] }
	| { kind: 'no_usable_face'; problem: FaceProblem }
	| { kind: 'busy' };

/** Sessions with an upload being processed in this process: a second one at once is refused early. */
const uploading = new Set<string>();

/**
 * The kiosk's selfie upload: owner check, cheap status check, the body read with a byte count
 * (never more than 15 MB kept in memory), content validation and normalisation, the face check,
 * then the files and `take_photo_and_enqueue`. Nothing is written to disk before the photo has
 * passed, and a photo that loses the race for the session is deleted again. A photo without one
 * usable face leaves the session as it was, so the guest can retake at once.
 */
export async function uploadSelfie(deps: UploadDeps, kioskId: number, token: string, body: ReadableStream<Uint8Array> | null, declaredLength: number | null): Promise<UploadOutcome> {
	if (!(await isSessionOfKiosk(deps.db, kioskId, token))) return { kind: 'unknown' };
	const early = photoReadiness(await findSession(deps.db, token));
	if (early) return early;
	if (declaredLength !== null && declaredLength > MAX_UPLOAD_BYTES) return { kind: 'too_large' };
	if (uploading.has(token)) return { kind: 'busy' };
	uploading.add(token);
	try {
		const bytes = await readLimited(body, MAX_UPLOAD_BYTES);
		if (!bytes) return { kind: 'too_large' };
		const photo = await normalisePhoto(bytes).catch((error: unknown) => {
			if (error instanceof PhotoRejected) return error;
			throw error;
		});
		if (photo instanceof PhotoRejected) {
			deps.logger.info({ problem: photo.problem, detail: photo.message }, 'selfie upload refused');
			return { kind: 'rejected', problem: photo.problem };
		}
		const checked = await checkSelfieFace(photo, await deps.faceDetector());
		if (!checked.ok) {
			deps.logger.info({ problem: checked.problem, faces: checked.faces }, 'selfie upload refused: no usable face');
			return { kind: 'no_usable_face', problem: checked.problem };
		}
		return await storeAndEnqueue(deps, token, photo.selfie, checked.faceCrop);
	} finally {
		uploading.delete(token);
	}
}

async function storeAndEnqueue(deps: UploadDeps, token: string, selfie: Buffer, faceCrop: Buffer): Promise<UploadOutcome> {
	const files = storeOf(deps, deps.dataDir);
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
